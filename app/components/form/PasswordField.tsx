import type { FieldPath, FieldValues, ResponseData } from "@modular-forms/react";
import { useState } from "react";
import { useT } from "../../lib/use-locale";
import { TextField, type TextFieldProps } from "./TextField";

/** A password input with a show/hide toggle (a real button, announced by its label). */
export function PasswordField<T extends FieldValues, R extends ResponseData, N extends FieldPath<T>>(props: Omit<TextFieldProps<T, R, N>, "type" | "addon">) {
  const t = useT();
  const [shown, setShown] = useState(false);
  return (
    <TextField
      {...props}
      type={shown ? "text" : "password"}
      dir="auto"
      addon={
        <button type="button" className="field__toggle" aria-pressed={shown} onClick={() => setShown((s) => !s)}>
          {shown ? t("form.hidePassword") : t("form.showPassword")}
        </button>
      }
    />
  );
}
