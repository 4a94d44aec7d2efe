import { useForm } from "@modular-forms/react";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import { Link } from "../lib/link";
import type { Route } from "./+types/auth.forget-password";
import { AuthCard } from "../components/form/AuthCard";
import { ChannelSwitch, type Channel } from "../components/form/ChannelSwitch";
import { FormErrors } from "../components/form/FormErrors";
import { PhoneField } from "../components/form/PhoneField";
import { TextField } from "../components/form/TextField";
import { useRouteAction } from "../components/form/useRouteAction";
import { answer, intentOf, textOf, unknownIntent } from "../lib/actions";
import { isLocale } from "../lib/locales";
import { requestPasswordReset } from "../lib/api/account";
import { browserApi } from "../lib/api/browser";
import { FORM_OPTIONS, formRules } from "../lib/forms";
import { pageMeta } from "../lib/seo";
import { useLocalePath, useT } from "../lib/use-locale";
import { SubmitButton } from "../components/form/SubmitButton";
import { scriptRequired } from "../lib/no-script.server";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "forgetPassword", noindex: true });

/** Posted without JavaScript: the form carries a secret, so it posts, and the page says it needs the script. */
export const action = (args: Route.ActionArgs) => scriptRequired(args);

type ForgetValues = { email: string; phone: string };

/** With JavaScript: asks the backend to send a reset code to the email or phone given. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const form = await request.formData();
  if (intentOf(form, ["request"] as const) !== "request") return unknownIntent(locale);
  const payload = form.has("email") ? { email: textOf(form, "email") } : { phone: textOf(form, "phone") };
  return answer(locale, "request", () => requestPasswordReset(browserApi(locale), payload));
}

/** Forgotten password: email or phone → a reset code (the same answer whether or not an account exists). */
export default function ForgetPassword() {
  const t = useT();
  const to = useLocalePath();
  const navigate = useNavigate();
  const rules = useMemo(() => formRules(t), [t]);
  const [channel, setChannel] = useState<Channel>("email");
  const [form, { Form, Field }] = useForm<ForgetValues>({ ...FORM_OPTIONS, initialValues: { email: "", phone: "" } });
  const requesting = useRouteAction(form);
  const { serverErrors, serverMessage } = requesting;
  const labels = { email: t("auth.email"), phone: t("auth.phone") };

  const submit = (values: ForgetValues) => {
    const recipient = channel === "email" ? values.email.trim() : values.phone;
    return requesting.submit("request", channel === "email" ? { email: recipient } : { phone: recipient }, {
      loading: t("auth.sendingCode"),
      success: (sent) => sent.message || t("auth.codeSent"),
      onDone: () => void navigate(`${to("/auth/otp")}?${new URLSearchParams({ purpose: "reset", to: recipient })}`),
    });
  };

  return (
    <AuthCard
      title={t("pages.forgetPassword.title")}
      lead={t("auth.forgetLead")}
      footer={
        <p>
          <Link to={to("/auth/login")}>{t("auth.backToSignIn")}</Link>
        </p>
      }
    >
      <Form method="post" className="form auth-form" onSubmit={submit} shouldFocus={false} aria-labelledby="auth-title">
        <FormErrors
          form={form}
          messages={rules.messages}
          serverErrors={serverErrors}
          serverMessage={serverMessage}
          labels={labels}
        />
        <ChannelSwitch name="forget-channel" value={channel} onChange={setChannel} />
        {channel === "email" ? (
          <Field name="email" validate={[rules.required(labels.email), rules.email()]}>
            {(field, props) => (
              <TextField
                form={form}
                field={field}
                props={props}
                label={labels.email}
                type="email"
                autoComplete="username"
                dir="ltr"
                required
              />
            )}
          </Field>
        ) : (
          <Field name="phone" validate={[rules.required(labels.phone), rules.phone()]}>
            {(field, props) => <PhoneField form={form} field={field} props={props} label={labels.phone} required />}
          </Field>
        )}
        <SubmitButton className="button button--primary button--block">{t("auth.sendCode")}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
