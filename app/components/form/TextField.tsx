import type {
  FieldElementProps,
  FieldPath,
  FieldStore,
  FieldValues,
  FormStore,
  ResponseData,
} from "@modular-forms/react";
import { useSignals } from "@preact/signals-react/runtime";
import type { InputHTMLAttributes, ReactNode } from "react";
import { visibleError } from "../../lib/forms";

/** The id of a field's input, so summaries can link to it. */
export function fieldId(name: string, prefix = "f"): string {
  return `${prefix}-${name.replace(/[^\w-]/g, "-")}`;
}

type InputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "name" | "value" | "form" | "onChange" | "onBlur" | "defaultValue"
>;

export interface TextFieldProps<
  T extends FieldValues,
  R extends ResponseData,
  N extends FieldPath<T>,
> extends InputProps {
  form: FormStore<T, R>;
  field: FieldStore<T, N>;
  props: FieldElementProps<T, N>;
  label: string;
  hint?: ReactNode;
  /** Prefix of the input's id (several forms on one page). */
  idPrefix?: string;
  /** Something placed after the input inside the field (a show-password button). */
  addon?: ReactNode;
  multiline?: boolean;
  rows?: number;
  /**
   * The page's own language, for a field inside a block of another language (the console's English
   * column on an Arabic page): the label, hint and message read in the page's direction, the input
   * in the block's.
   */
  ui?: { lang: string; dir: "ltr" | "rtl" };
}

/**
 * A labelled input bound to a modular-forms field. Its message shows once the field is dirty
 * (or the form submitted), tied to the input by aria-describedby and
 * aria-invalid.
 */
export function TextField<T extends FieldValues, R extends ResponseData, N extends FieldPath<T>>({
  form,
  field,
  props,
  label,
  hint,
  idPrefix,
  addon,
  multiline,
  rows,
  required,
  className,
  ui,
  ...input
}: TextFieldProps<T, R, N>) {
  useSignals();
  const id = fieldId(field.name, idPrefix);
  const error = visibleError(field, form);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  const raw = field.value.value;
  const value = raw === undefined || raw === null ? "" : String(raw);
  const common = {
    id,
    name: props.name,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy,
    "aria-required": required ? true : undefined,
  };
  return (
    <div className={`field${className ? ` ${className}` : ""}`} data-invalid={error ? "true" : undefined}>
      <label htmlFor={id} {...ui}>
        {label}
        {required ? (
          <span className="field__required" aria-hidden="true">
            {" "}
            *
          </span>
        ) : null}
      </label>
      <div className="field__control">
        {multiline ? (
          <textarea
            {...common}
            rows={rows ?? 5}
            value={value}
            ref={props.ref}
            onChange={props.onChange}
            onBlur={props.onBlur}
            placeholder={input.placeholder}
            dir={input.dir}
            autoComplete={input.autoComplete}
          />
        ) : (
          <input {...input} {...common} value={value} ref={props.ref} onChange={props.onChange} onBlur={props.onBlur} />
        )}
        {addon}
      </div>
      {hint ? (
        <p id={hintId} className="field__hint" {...ui}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field__error" {...ui}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
