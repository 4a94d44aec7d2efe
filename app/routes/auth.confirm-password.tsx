import { getValue, useForm } from "@modular-forms/react";
import { useMemo, useSyncExternalStore } from "react";
import { useNavigate } from "react-router";
import { Link } from "../lib/link";
import type { Route } from "./+types/auth.confirm-password";
import { AuthCard } from "../components/form/AuthCard";
import { FormErrors } from "../components/form/FormErrors";
import { PasswordField } from "../components/form/PasswordField";
import { TextField } from "../components/form/TextField";
import { useRouteAction } from "../components/form/useRouteAction";
import { answer, intentOf, textOf, unknownIntent } from "../lib/actions";
import { isLocale } from "../lib/locales";
import { setNewPassword } from "../lib/api/account";
import { browserApi } from "../lib/api/browser";
import { FORM_OPTIONS, formRules, noAutocompleteProps, noCopyPasteProps } from "../lib/forms";
import { dropResetToken, readResetToken } from "../lib/identity";
import { pageMeta } from "../lib/seo";
import { useLocalePath, useT } from "../lib/use-locale";
import { SubmitButton } from "../components/form/SubmitButton";
import { scriptRequired } from "../lib/no-script.server";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "confirmPassword", noindex: true });

/** Posted without JavaScript: the form carries a secret, so it posts, and the page says it needs the script. */
export const action = (args: Route.ActionArgs) => scriptRequired(args);

/** The reset token does not change while the page is open: nothing to subscribe to. */
const unchanging = () => () => {};

type ConfirmValues = { password: string; password_confirmation: string };

/** With JavaScript: sets the new password with the reset token the tab holds, which then goes. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const form = await request.formData();
  const resetToken = readResetToken();
  if (intentOf(form, ["set"] as const) !== "set" || !resetToken) return unknownIntent(locale);
  return answer(locale, "set", async () => {
    const saved = await setNewPassword(browserApi(locale), resetToken, {
      password: textOf(form, "password"),
      password_confirmation: textOf(form, "password_confirmation"),
    });
    dropResetToken();
    return saved;
  });
}

/** The last step of a reset: a new password with its confirmation, then back to sign in. */
export default function ConfirmPassword() {
  const t = useT();
  const to = useLocalePath();
  const navigate = useNavigate();
  const rules = useMemo(() => formRules(t), [t]);
  // The token lives in session storage, which the server cannot see: undefined while the page is
  // server-rendered and hydrating, then read from the tab (React's store hook, no effect).
  const resetToken = useSyncExternalStore(unchanging, readResetToken, () => undefined);
  const [form, { Form, Field }] = useForm<ConfirmValues>({
    ...FORM_OPTIONS,
    initialValues: { password: "", password_confirmation: "" },
  });
  const saving = useRouteAction(form);
  const { serverErrors, serverMessage } = saving;
  const labels = { password: t("auth.newPassword"), password_confirmation: t("auth.passwordConfirmation") };

  if (resetToken === null || serverErrors.some((e) => e.type === "reset_token")) {
    return (
      <AuthCard title={t("pages.confirmPassword.title")}>
        <p className="form__alert" role="alert">
          {t("auth.resetExpired")}
        </p>
        <p>
          <Link className="button button--primary" to={to("/auth/forget-password")}>
            {t("auth.askNewCode")}
          </Link>
        </p>
      </AuthCard>
    );
  }

  const submit = (values: ConfirmValues) => {
    if (!resetToken) return;
    return saving.submit("set", values, {
      loading: t("auth.savingPassword"),
      success: (saved) => saved.message || t("auth.passwordChanged"),
      onDone: () => void navigate(to("/auth/login"), { replace: true }),
    });
  };

  return (
    <AuthCard title={t("pages.confirmPassword.title")} lead={t("auth.confirmLead")}>
      <Form method="post" className="form auth-form" onSubmit={submit} shouldFocus={false} aria-labelledby="auth-title">
        <FormErrors
          form={form}
          messages={rules.messages}
          serverErrors={serverErrors}
          serverMessage={serverMessage}
          labels={labels}
        />
        <Field name="password" validate={rules.newPassword(labels.password)}>
          {(field, props) => (
            <PasswordField
              form={form}
              field={field}
              props={props}
              label={labels.password}
              autoComplete="new-password"
              hint={t("auth.passwordHint")}
              required
            />
          )}
        </Field>
        <Field
          name="password_confirmation"
          validate={[
            rules.required(labels.password_confirmation),
            rules.matches(labels.password_confirmation, () => getValue(form, "password")),
          ]}
        >
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={labels.password_confirmation}
              type="password"
              dir="auto"
              {...noAutocompleteProps}
              {...noCopyPasteProps}
              required
            />
          )}
        </Field>
        <SubmitButton className="button button--primary button--block" disabled={resetToken === undefined}>
          {t("auth.savePassword")}
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}
