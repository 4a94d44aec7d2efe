import type { InputField, InputMessages } from "../../contract/inputs";
import { boundText, readNumber, type NumberProblem, type NumberRules } from "../../contract/numbers";
import type * as Valibot from "./form-valibot";
import { formMessages, fromSchema, type V, type Validator } from "./forms";
import type { Translate } from "./i18n";

/**
 * Form rules from the contract's input schemas (contract/inputs.ts): the
 * checkout, address-book and contact forms check exactly what the backend will, with the same
 * limits. Apart from forms.ts so that forms with only the named rules (sign-in, profile) do not
 * carry them.
 */

/**
 * The contract's messages (contract/inputs.ts) in the visitor's language, naming each field by
 * the label the form shows for it.
 */
export function inputMessages(t: Translate, labels: Partial<Record<InputField, string>>): InputMessages {
  const m = formMessages(t);
  const label = (field: InputField) => labels[field] ?? field;
  const invalid: Partial<Record<InputField, string>> = {
    email: m.email,
    phone: m.phone,
    postal_code: t("address.postalCodeInvalid"),
    building: t("address.buildingInvalid"),
    additional_number: t("address.additionalNumberInvalid"),
    short_address: t("address.shortAddressInvalid"),
    buyer_vat_number: t("checkout.business.vatNumberInvalid"),
    compare_at_price: t("numbers.compareAbovePrice"),
    barcode: t("console.productForm.barcodeInvalid"),
    weight_grams: t("console.productForm.weightInvalid"),
  };
  return {
    required: (field) => m.required(label(field)),
    minLength: (field, min) => m.minLength(label(field), min),
    maxLength: (field, max) => m.maxLength(label(field), max),
    invalid: (field) => invalid[field] ?? m.fallback,
    number: (field, problem, rules) => numberProblem(t, label(field), problem, rules),
  };
}

/** Why a typed amount or count was refused ("Up to 2 decimals"), in the words the backend uses. */
export function numberProblem(
  t: Translate,
  name: string,
  problem: Exclude<NumberProblem, "empty">,
  rules: NumberRules,
): string {
  return t(`numbers.${problem}.${rules.decimals > 0 ? "money" : "count"}`, {
    name,
    min: boundText(rules.min ?? 0, rules),
    max: boundText(rules.max ?? 0, rules),
  });
}

/**
 * A form field's rule for a typed number (contract/numbers.ts): riyals with `decimals: 2`, a
 * count with 0; empty passes (pair it with a required rule where one is needed).
 */
export function numberRule(t: Translate, name: string, rules: NumberRules | (() => NumberRules)): Validator {
  return (value) => {
    const current = typeof rules === "function" ? rules() : rules;
    const reading = readNumber(value ?? "", current);
    return reading.ok || reading.problem === "empty" ? "" : numberProblem(t, name, reading.problem, current);
  };
}

/**
 * Field validators from one of the contract's input schemas, one per labelled field: a form
 * checks exactly what the backend will, with the same limits. `pick` gets the
 * loaded valibot chunk, which carries the contract's schema builders.
 */
export function contractRules<F extends InputField>(
  t: Translate,
  labels: Record<F, string>,
  pick: (v: V, m: InputMessages) => Record<NoInfer<F>, Valibot.GenericSchema>,
): Record<F, Validator> {
  const messages = inputMessages(t, labels);
  const fallback = formMessages(t).fallback;
  let schemas: Record<F, Valibot.GenericSchema> | undefined;
  const rules = {} as Record<F, Validator>;
  for (const field of Object.keys(labels) as F[]) {
    rules[field] = fromSchema((v) => (schemas ??= pick(v, messages))[field], fallback);
  }
  return rules;
}

/** The delivery-address fields of the checkout form, as a form labels them. */
export type AddressLabels = Record<
  | "name"
  | "phone"
  | "city"
  | "district"
  | "street"
  | "short_address"
  | "building"
  | "additional_number"
  | "postal_code"
  | "notes",
  string
>;

/** A saved address (the profile's address book): the contract's saved-address fields. */
export function addressRules(t: Translate, labels: AddressLabels & { label: string }) {
  return contractRules(t, labels, (v, m) => v.savedAddressFields(m));
}

/**
 * Checkout: the contract's delivery-address fields, a guest's email and a business buyer's company
 * and VAT number, as POST /checkout checks them.
 */
export function checkoutRules(
  t: Translate,
  labels: AddressLabels & { email: string; buyer_company: string; buyer_vat_number: string },
) {
  return contractRules(t, labels, (v, m) => ({ ...v.addressFields(m), email: v.emailField(m), ...v.buyerFields(m) }));
}

/** The contact form, as POST /contact checks it. */
export function contactRules(t: Translate, labels: Record<"name" | "email" | "phone" | "subject" | "message", string>) {
  return contractRules(t, labels, (v, m) => v.contactInput(m).entries);
}
