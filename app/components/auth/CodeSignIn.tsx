import { useForm } from "@modular-forms/react";
import { useEffect, useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { SIGN_IN_CODE_DIGITS, SIGN_IN_RESEND_SECONDS } from "../../../contract/code-sign-in";
import { FORM_OPTIONS, formRules, phoneKeyDown, type SchemaOf } from "../../lib/forms";
import { toLatinDigits } from "../../lib/phone-text";
import { countOf } from "../../lib/plural";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";
import { safeRedirect } from "../../middleware/auth";
import { FormErrors } from "../form/FormErrors";
import { PasswordField } from "../form/PasswordField";
import { PhoneField } from "../form/PhoneField";
import { SubmitButton } from "../form/SubmitButton";
import { fieldId, TextField } from "../form/TextField";
import { useRouteAction } from "../form/useRouteAction";

const ID_PREFIX = "code-signin";

/**
 * Signing in with a code sent to a mobile number: the number, "Send code", then the code (with a
 * resend after a minute). A right code signs in; a new number's account is then asked its name
 * (the login action sends it to the welcome page). Loaded only when the visitor chooses the phone,
 * outside the login page's first load. The calls are the login route's `code-*` intents.
 */
export default function CodeSignIn({
  channel = "phone",
  redirectTo,
  onUsePassword,
}: {
  /** Where the code goes: a mobile number by SMS (or WhatsApp), or an email address. */
  channel?: "phone" | "email";
  redirectTo: string | null;
  onUsePassword: () => void;
}) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const rules = useMemo(() => formRules(t), [t]);
  const [phone, setPhone] = useState<string | null>(null);
  const [wait, setWait] = useState(0);
  const [numberForm, number] = useForm<{ phone: string; email: string }>({
    ...FORM_OPTIONS,
    initialValues: { phone: "", email: "" },
  });
  const [codeForm, code] = useForm<{ code: string; password: string }>({
    ...FORM_OPTIONS,
    initialValues: { code: "", password: "" },
  });
  // Set when the right code was for a number never proven by a code: the account's password is asked too.
  const [needsPassword, setNeedsPassword] = useState(false);
  const sending = useRouteAction(numberForm);
  const resending = useRouteAction();
  const checking = useRouteAction(codeForm);
  const labels = {
    phone: t("auth.phone"),
    email: t("auth.email"),
    code: t("codeSignIn.code"),
    password: t("auth.password"),
  };

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  // The code field takes the focus as soon as it appears, so the keyboard (and the SMS autofill) is there.
  useEffect(() => {
    if (phone) document.getElementById(fieldId("code", ID_PREFIX))?.focus();
  }, [phone]);

  // The password field, once asked for, takes the focus (its sentence above says why).
  useEffect(() => {
    if (needsPassword) document.getElementById(fieldId("password", ID_PREFIX))?.focus();
  }, [needsPassword]);

  const send = (values: { phone: string; email: string }) =>
    sending.submit(
      "code-request",
      { [channel]: values[channel].trim() },
      {
        loading: t("auth.sendingCode"),
        success: (sent) => sent.message,
        onDone: () => {
          setPhone(values[channel].trim());
          setWait(SIGN_IN_RESEND_SECONDS);
        },
      },
    );

  const resend = () =>
    void resending.submit(
      "code-request",
      { [channel]: phone },
      {
        loading: t("auth.sendingCode"),
        success: (sent) => sent.message,
        onDone: () => setWait(SIGN_IN_RESEND_SECONDS),
        onRefused: () => setWait(SIGN_IN_RESEND_SECONDS),
      },
    );

  const check = (values: { code: string; password: string }) =>
    checking.submit<{ needs_name: boolean; name: string } | { needs_password: true }>(
      "code-verify",
      {
        [channel]: phone,
        code: toLatinDigits(values.code).replace(/\D/g, ""),
        password: needsPassword ? values.password : "",
        redirect: redirectTo,
      },
      {
        loading: t("auth.signingIn"),
        success: (signedIn) =>
          "needs_password" in signedIn.value ? undefined : t("auth.welcome", { name: signedIn.value.name }),
        onDone: (signedIn) => {
          if ("needs_password" in signedIn.value) setNeedsPassword(true);
          else void navigate(safeRedirect(redirectTo, locale) ?? to("/profile"), { replace: true });
        },
      },
    );

  const passwordLink = (
    <p className="auth-form__aside">
      <button type="button" className="code-signin__link" onClick={onUsePassword}>
        {t("codeSignIn.usePassword")}
      </button>
    </p>
  );

  if (!phone) {
    return (
      <number.Form
        method="post"
        className="form auth-form code-signin"
        onSubmit={send}
        shouldFocus={false}
        aria-labelledby="auth-title"
      >
        <FormErrors
          form={numberForm}
          messages={rules.messages}
          serverErrors={sending.serverErrors}
          serverMessage={sending.serverMessage}
          labels={labels}
        />
        {channel === "email" ? (
          <number.Field name="email" validate={[rules.required(labels.email), rules.email()]}>
            {(field, props) => (
              <TextField
                form={numberForm}
                field={field}
                props={props}
                label={labels.email}
                idPrefix={ID_PREFIX}
                type="email"
                autoComplete="email"
                dir="ltr"
                hint={t("codeSignIn.emailHint")}
                required
              />
            )}
          </number.Field>
        ) : (
          <number.Field name="phone" validate={[rules.required(labels.phone), rules.phone()]}>
            {(field, props) => (
              <PhoneField
                form={numberForm}
                field={field}
                props={props}
                label={labels.phone}
                idPrefix={ID_PREFIX}
                hint={t("codeSignIn.phoneHint")}
                required
              />
            )}
          </number.Field>
        )}
        <SubmitButton className="button button--primary button--block">{t("codeSignIn.send")}</SubmitButton>
        {passwordLink}
      </number.Form>
    );
  }

  return (
    <div className="code-signin">
      <p className="code-signin__sent" role="status">
        {t("codeSignIn.sentTo")} <bdi dir="ltr">{phone}</bdi>{" "}
        <button
          type="button"
          className="code-signin__link"
          onClick={() => {
            setPhone(null);
            setWait(0);
            setNeedsPassword(false);
          }}
        >
          {t(channel === "email" ? "codeSignIn.changeEmail" : "codeSignIn.changeNumber")}
        </button>
      </p>
      <code.Form
        method="post"
        className="form auth-form"
        onSubmit={check}
        shouldFocus={false}
        aria-labelledby="auth-title"
      >
        <FormErrors
          form={codeForm}
          messages={rules.messages}
          serverErrors={checking.serverErrors}
          serverMessage={checking.serverMessage}
          labels={labels}
        />
        <code.Field
          name="code"
          validate={[rules.required(labels.code), rules.schema(codeSchema(t("auth.codeFormat")))]}
          transform={(value) =>
            toLatinDigits(value ?? "")
              .replace(/\D/g, "")
              .slice(0, SIGN_IN_CODE_DIGITS)
          }
        >
          {(field, props) => (
            <TextField
              form={codeForm}
              field={field}
              props={props}
              label={labels.code}
              idPrefix={ID_PREFIX}
              className="field--otp"
              inputMode="numeric"
              autoComplete="one-time-code"
              onKeyDown={(e) => {
                if (e.key === "+") e.preventDefault();
                else phoneKeyDown(e);
              }}
              maxLength={SIGN_IN_CODE_DIGITS}
              dir="ltr"
              hint={t("auth.codeHint")}
              required
            />
          )}
        </code.Field>
        {needsPassword ? (
          <>
            <p className="code-signin__confirm" role="status">
              {t("codeSignIn.confirmPassword")}
            </p>
            <code.Field name="password" validate={[rules.required(labels.password)]}>
              {(field, props) => (
                <PasswordField
                  form={codeForm}
                  field={field}
                  props={props}
                  label={labels.password}
                  idPrefix={ID_PREFIX}
                  autoComplete="current-password"
                  required
                />
              )}
            </code.Field>
          </>
        ) : null}
        <SubmitButton className="button button--primary button--block">{t("auth.signIn")}</SubmitButton>
      </code.Form>
      <div className="otp-resend">
        <button type="button" className="button button--ghost" disabled={wait > 0} onClick={resend}>
          {t("auth.resend")}
        </button>
        <p className="muted">{wait > 0 ? countOf(t, locale, "auth.resendIn", wait) : t("auth.resendReady")}</p>
      </div>
      {passwordLink}
    </div>
  );
}

function codeSchema(message: string): SchemaOf {
  return (v) => v.pipe(v.string(), v.regex(/^\d{6}$/, message));
}
