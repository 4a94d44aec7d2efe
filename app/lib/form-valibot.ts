/**
 * The part of valibot the form rules use, as one module the forms load after hydration
 * (`loadValibot` in forms.ts), with the contract's input schemas (contract/inputs.ts) that the
 * backend checks too. Importing these names, rather than `import("valibot")` whole, keeps the
 * bundler's tree-shaking: the chunk holds what the rules need and nothing else.
 */
export { email, maxLength, minLength, nonEmpty, pipe, regex, safeParse, string, trim, url } from "valibot";
export type { GenericSchema } from "valibot";
export { addressFields, buyerFields, contactInput, emailField, savedAddressFields } from "../../contract/inputs";
export { returnLineFields } from "../../contract/returns";
export { LIMITS } from "../../contract/limits";
