import {
  setValue,
  type FieldElementProps,
  type FieldPath,
  type FieldPathValue,
  type FieldStore,
  type FieldValues,
  type FormStore,
  type ResponseData,
} from "@modular-forms/react";
import { useSignals } from "@preact/signals-react/runtime";
import type { ReactNode } from "react";
import { visibleError } from "../../lib/forms";
import { SHOP_COUNTRY } from "../../lib/phone-text";
import { LazyPhoneInput } from "../LazyPhoneInput";
import { fieldId } from "./TextField";

export interface PhoneFieldProps<T extends FieldValues, R extends ResponseData, N extends FieldPath<T>> {
  form: FormStore<T, R>;
  field: FieldStore<T, N>;
  props: FieldElementProps<T, N>;
  label: string;
  hint?: ReactNode;
  idPrefix?: string;
  required?: boolean;
  /** The country the field starts with: the shop's unless a form says otherwise. */
  defaultCountry?: string;
}

/** A labelled PhoneInput bound to a modular-forms field holding the number in E.164. */
export function PhoneField<T extends FieldValues, R extends ResponseData, N extends FieldPath<T>>({
  form,
  field,
  props,
  label,
  hint,
  idPrefix,
  required,
  defaultCountry = SHOP_COUNTRY,
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
        {required ? (
          <span className="field__required" aria-hidden="true">
            {" "}
            *
          </span>
        ) : null}
      </label>
      <LazyPhoneInput
        id={id}
        name={props.name}
        value={typeof raw === "string" ? raw : ""}
        defaultCountry={defaultCountry}
        onChange={(e164) =>
          setValue(form, field.name, e164 as FieldPathValue<T, N>, {
            shouldTouched: true,
            shouldDirty: true,
            shouldValidate: true,
            shouldFocus: false,
          })
        }
        onBlur={props.onBlur}
        inputRef={props.ref}
        invalid={Boolean(error)}
        describedBy={describedBy}
        required={required}
      />
      {hint ? (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
