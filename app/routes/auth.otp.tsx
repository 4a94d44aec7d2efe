import { useForm } from "@modular-forms/react";
import { useEffect, useMemo, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { Link } from "../lib/link";
import type { Route } from "./+types/auth.otp";
import { AuthCard } from "../components/form/AuthCard";
import { FormErrors } from "../components/form/FormErrors";
import { TextField } from "../components/form/TextField";
import { useRouteAction } from "../components/form/useRouteAction";
import { answer, intentOf, textOf, unknownIntent } from "../lib/actions";
import { resendCode, verifyCode } from "../lib/api/account";
import { browserApi } from "../lib/api/browser";
import { isLocale } from "../lib/locales";
import { FORM_OPTIONS, formRules, phoneKeyDown, type SchemaOf } from "../lib/forms";
import { holdResetToken, identifierPayload, isSignedIn } from "../lib/identity";
import { toLatinDigits } from "../lib/phone-text";
import { countOf } from "../lib/plural";
import { pageMeta } from "../lib/seo";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { safeRedirect } from "../middleware/auth";
import { SubmitButton } from "../components/form/SubmitButton";
import { scriptRequired } from "../lib/no-script.server";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "otp", noindex: true });

/** Posted without JavaScript: the form carries a secret, so it posts, and the page says it needs the script. */
export const action = (args: Route.ActionArgs) => scriptRequired(args);

/** Seconds before another code may be asked for (the backend throttles resends as well). */
export const RESEND_AFTER_SECONDS = 60;

type Purpose = "verify" | "reset";
type OtpValues = { code: string };
type Verified = { verified?: boolean; reset_token?: string };

/**
 * With JavaScript: checks the code (`verify`; a reset code's token is kept in the tab for the next
 * step) or asks for another (`resend`), for the recipient and purpose the page was opened with.
 */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const form = await request.formData();
  const intent = intentOf(form, ["verify", "resend"] as const);
  const api = browserApi(locale);
  const recipient = identifierPayload(textOf(form, "to"));
  const purpose: Purpose = textOf(form, "purpose") === "reset" ? "reset" : "verify";
  switch (intent) {
    case "verify":
      return answer(locale, intent, async () => {
        const checked = await verifyCode(api, recipient, textOf(form, "code"), purpose);
        if (purpose === "reset" && checked.data?.reset_token) holdResetToken(checked.data.reset_token);
        return checked;
      });
    case "resend":
      return answer(locale, intent, () => resendCode(api, recipient, purpose));
    default:
      return unknownIntent(locale);
  }
}

/**
 * One-time code entry (spec §1): `verify` after registration, `reset` for a forgotten password.
 * A reset code turns into a reset token kept in session storage for the next step only.
 */
export default function Otp() {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const purpose: Purpose = params.get("purpose") === "reset" ? "reset" : "verify";
  const recipient = (params.get("to") ?? "").trim();
  const redirectTo = params.get("redirect");
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<OtpValues>({ ...FORM_OPTIONS, initialValues: { code: "" } });
  const checking = useRouteAction(form);
  const { serverErrors, serverMessage } = checking;
  const resending = useRouteAction();
  const label = t("auth.code");
  const [wait, setWait] = useState(RESEND_AFTER_SECONDS);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  // Too many codes asked for is spec §8's "other status": the common handler's toast.
  const resend = () =>
    void resending.submit(
      "resend",
      { to: recipient, purpose },
      {
        loading: t("auth.sendingCode"),
        success: (sent) => sent.message || t("auth.codeSent"),
        onDone: () => setWait(RESEND_AFTER_SECONDS),
        onRefused: () => setWait(RESEND_AFTER_SECONDS),
      },
    );
  // "Verify my email" from the profile asks for a fresh code on arrival (the first may have expired).
  const sendOnArrival = params.get("send") === "1";
  useEffect(() => {
    if (!sendOnArrival || !recipient) return;
    resend();
    // A reload must not send yet another code.
    setParams(
      (p) => {
        p.delete("send");
        return p;
      },
      { replace: true },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, on arrival
  }, []);

  if (!recipient) {
    return (
      <AuthCard title={t("pages.otp.title")}>
        <p className="form__alert" role="alert">
          {t("auth.otpMissingRecipient")}
        </p>
        <p>
          <Link className="button" to={to(purpose === "reset" ? "/auth/forget-password" : "/auth/register")}>
            {t("auth.startAgain")}
          </Link>
        </p>
      </AuthCard>
    );
  }

  const submit = (values: OtpValues) =>
    checking.submit<Verified>(
      "verify",
      { code: toLatinDigits(values.code).replace(/\D/g, ""), to: recipient, purpose },
      {
        loading: t("auth.checkingCode"),
        success: (checked) => checked.message,
        onDone: ({ value }) => {
          if (purpose === "reset") {
            if (value?.reset_token) void navigate(to("/auth/confirm-password"), { replace: true });
            return;
          }
          void navigate(isSignedIn() ? (safeRedirect(redirectTo, locale) ?? to("/profile")) : to("/auth/login"), {
            replace: true,
          });
        },
      },
    );

  return (
    <AuthCard
      title={t("pages.otp.title")}
      lead={
        <>
          {t(purpose === "reset" ? "auth.otpLeadReset" : "auth.otpLeadVerify")}{" "}
          <bdi className="auth-card__recipient">{recipient}</bdi>
        </>
      }
    >
      <Form method="post" className="form auth-form" onSubmit={submit} shouldFocus={false} aria-labelledby="auth-title">
        <FormErrors
          form={form}
          messages={rules.messages}
          serverErrors={serverErrors}
          serverMessage={serverMessage}
          labels={{ code: label }}
        />
        <Field
          name="code"
          validate={[rules.required(label), rules.schema(otpSchema(t("auth.codeFormat")))]}
          transform={(value) =>
            toLatinDigits(value ?? "")
              .replace(/\D/g, "")
              .slice(0, 6)
          }
        >
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={label}
              className="field--otp"
              inputMode="numeric"
              autoComplete="one-time-code"
              onKeyDown={(e) => {
                if (e.key === "+") e.preventDefault();
                else phoneKeyDown(e);
              }}
              maxLength={6}
              dir="ltr"
              hint={t("auth.codeHint")}
              required
            />
          )}
        </Field>
        <SubmitButton className="button button--primary button--block">
          {t(purpose === "reset" ? "auth.continue" : "auth.verify")}
        </SubmitButton>
      </Form>
      <div className="otp-resend">
        <button type="button" className="button button--ghost" disabled={wait > 0} onClick={resend}>
          {t("auth.resend")}
        </button>
        <p className="muted">{wait > 0 ? countOf(t, locale, "auth.resendIn", wait) : t("auth.resendReady")}</p>
      </div>
    </AuthCard>
  );
}

function otpSchema(message: string): SchemaOf {
  return (v) => v.pipe(v.string(), v.regex(/^\d{6}$/, message));
}
