import type { FieldPath, FieldValues, ResponseData } from "@modular-forms/react";
import { useState } from "react";
import { useT } from "../../lib/use-locale";
import { TextField, type TextFieldProps } from "./TextField";

/** A password input with a show-password toggle: a real button, its state announced by aria-pressed. */
export function PasswordField<T extends FieldValues, R extends ResponseData, N extends FieldPath<T>>(
  props: Omit<TextFieldProps<T, R, N>, "type" | "addon">,
) {
  const t = useT();
  const [shown, setShown] = useState(false);
  return (
    <TextField
      {...props}
      type={shown ? "text" : "password"}
      dir="auto"
      addon={
        <button type="button" className="field__toggle" aria-pressed={shown} onClick={() => setShown((s) => !s)}>
          <span className="visually-hidden">{t("form.showPassword")}</span>
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            width="22"
            height="22"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12z" />
            <circle cx="12" cy="12" r="3" />
            {shown ? null : <path d="M4 4l16 16" />}
          </svg>
        </button>
      }
    />
  );
}
