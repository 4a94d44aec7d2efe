import type { FieldElementProps, FieldStore, FormStore } from "@modular-forms/react";
import { useState } from "react";
import { SIGN_IN_CODE_DIGITS } from "../../../contract/code-sign-in";
import { toLatinDigits } from "../../lib/phone-text";
import { useLocale, useT } from "../../lib/use-locale";
import { TextField } from "../form/TextField";
import type { ProfileValues } from "./EditProfile";

/** The code as the backend takes it: Latin digits only (an Arabic keyboard types ٠-٩). */
export function latinCode(value: string): string {
  return toLatinDigits(value).replace(/\D/g, "");
}

/**
 * The proof of a change of email or phone for an account with no password (made by a sign-in
 * code): "Send code" to its current phone or email, and the code's field. The backend checks the
 * code (`code` on POST /client/auth/profile) instead of a password. Loaded only for such an account,
 * outside the edit page's first load; the code call loads on the press.
 */
export default function CodeProof({
  to,
  form,
  field,
  props,
  label,
}: {
  to: string;
  form: FormStore<ProfileValues, undefined>;
  field: FieldStore<ProfileValues, "code">;
  props: FieldElementProps<ProfileValues, "code">;
  label: string;
}) {
  const t = useT();
  const locale = useLocale();
  const [sent, setSent] = useState("");
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    try {
      const [{ requestSignInCode }, { browserApi }] = await Promise.all([
        import("../../lib/api/code-sign-in"),
        import("../../lib/api/browser"),
      ]);
      const res = await requestSignInCode(browserApi(locale), to.includes("@") ? { email: to } : { phone: to });
      setSent(res.message ?? t("codeSignIn.profile.sent"));
    } catch {
      setSent(t("errors.default"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <div className="code-proof">
        <p className="muted">
          {t("codeSignIn.profile.proofLead")} <bdi dir="ltr">{to}</bdi>
        </p>
        <button type="button" className="button button--ghost" disabled={busy} onClick={() => void send()}>
          {t("codeSignIn.send")}
        </button>
        <p className="muted" role="status">
          {sent}
        </p>
      </div>
      <TextField
        form={form}
        field={field}
        props={props}
        label={label}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={SIGN_IN_CODE_DIGITS}
        dir="ltr"
        hint={t("codeSignIn.profile.codeHint")}
        required
      />
    </>
  );
}
