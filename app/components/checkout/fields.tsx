import { fieldId } from "../form/TextField";
import type { FieldName } from "./useCheckoutForm";

export const ID_PREFIX = "co";

/** What the field helpers read of the checkout form (useCheckoutForm). */
export interface FieldsState {
  values: Record<FieldName, string>;
  labels: Record<FieldName, string>;
  errorOf: (name: FieldName) => string;
  set: (name: FieldName, value: string) => void;
  /** A business buyer's checkout: the national address's building number and postal code are required. */
  business?: boolean;
}

/** A text field's input props: its value, its change, and its error's wiring. */
export function inputProps(form: FieldsState, name: FieldName) {
  const error = form.errorOf(name);
  const id = fieldId(name, ID_PREFIX);
  return {
    id,
    name,
    value: form.values[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => form.set(name, e.target.value),
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
  };
}

export function FieldError({ form, name }: { form: FieldsState; name: FieldName }) {
  const error = form.errorOf(name);
  return error ? (
    <p id={`${fieldId(name, ID_PREFIX)}-error`} className="field__error">
      {error}
    </p>
  ) : null;
}

/** A field's label, with the required mark when it is required. */
export function FieldLabel({ form, name, required }: { form: FieldsState; name: FieldName; required?: boolean }) {
  return (
    <label htmlFor={fieldId(name, ID_PREFIX)}>
      {form.labels[name]}
      {required ? (
        <span className="field__required" aria-hidden="true">
          {" "}
          *
        </span>
      ) : null}
    </label>
  );
}
