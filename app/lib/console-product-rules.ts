import { safeParse } from "valibot";
import { productFields } from "../../contract/console-catalogue";
import type { InputMessages } from "../../contract/inputs";
import type { Translate } from "./i18n";
import { inputMessages } from "./input-rules";

/**
 * The product form's rules: the contract's product schema, field by field, so the form
 * says what the backend and the CSV import say. Loaded by the form when it first checks a field
 * (app/components/console/ProductForm.tsx), so valibot is not part of the console's first load.
 */
export type ProductField = keyof ReturnType<typeof productFields>;

const built = new WeakMap<Translate, ReturnType<typeof productFields>>();

/** The first message of the field's rule for `value` in the form's language and labels, or "" when it passes. */
export function checkProductField(
  t: Translate,
  labels: Partial<Record<ProductField, string>>,
  field: ProductField,
  value: string,
): string {
  let fields = built.get(t);
  if (!fields) built.set(t, (fields = productFields(inputMessages(t, labels) as InputMessages)));
  const result = safeParse(fields[field], value, { abortPipeEarly: true });
  return result.success ? "" : (result.issues[0]?.message ?? "");
}
