import { setValue, type FieldElementProps, type FieldPath, type FieldPathValue, type FieldStore, type FieldValues, type FormStore, type ResponseData } from "@modular-forms/react";
import { useSignals } from "@preact/signals-react/runtime";
import { lazy, Suspense, type ReactNode } from "react";
import { visibleError } from "../../lib/forms";
import { fieldId } from "./TextField";

export interface PhoneFieldProps<T extends FieldValues, R extends ResponseData, N extends FieldPath<T>> {
  form: FormStore<T, R>;
  field: FieldStore<T, N>;
  props: FieldElementProps<T, N>;
  label: string;
  hint?: ReactNode;
  idPrefix?: string;
  required?: boolean;
  defaultCountry?: string;
}

/**
 * The phone input and its numbering metadata (about 35 KB gzip) load with the first phone field,
 * not with every form page. Until then a plain, already LTR and digits-only input stands in.
 */
const PhoneInput = lazy(() => import("../PhoneInput").then((m) => ({ default: m.PhoneInput })));

/** A labelled PhoneInput bound to a modular-forms field holding the number in E.164. */
export function PhoneField<T extends FieldValues, R extends ResponseData, N extends FieldPath<T>>({
  form,
  field,
  props,
  label,
  hint,
  idPrefix,
  required,
  defaultCountry,
}: PhoneFieldProps<T, R, N>) {
  useSignals();
  const id = fieldId(field.name, idPrefix);
  const error = visibleError(field, form);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  const raw = field.value.value;
  return (
    <div className="field" data-invalid={error ? "true" : undefined}>
      <label htmlFor={id}>
        {label}
        {required ? <span className="field__required" aria-hidden="true"> *</span> : null}
      </label>
      <Suspense
        fallback={
          <div className="phone-input">
            <input id={id} name={props.name} type="tel" dir="ltr" inputMode="tel" className="phone-input__number" value={typeof raw === "string" ? raw : ""} readOnly aria-describedby={describedBy} />
          </div>
        }
      >
      <PhoneInput
        id={id}
        name={props.name}
        value={typeof raw === "string" ? raw : ""}
        defaultCountry={defaultCountry}
        onChange={(e164) => setValue(form, field.name, e164 as FieldPathValue<T, N>, { shouldTouched: true, shouldDirty: true, shouldValidate: true, shouldFocus: false })}
        onBlur={props.onBlur}
        inputRef={props.ref}
        invalid={Boolean(error)}
        describedBy={describedBy}
        required={required}
      />
      </Suspense>
      {hint ? <p id={hintId} className="field__hint">{hint}</p> : null}
      {error ? <p id={errorId} className="field__error">{error}</p> : null}
    </div>
  );
}
