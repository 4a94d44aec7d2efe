import { getValue, useForm } from "@modular-forms/react";
import { useEffect, useMemo } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { Link } from "../lib/link";
import type { Route } from "./+types/auth.register";
import { AuthCard } from "../components/form/AuthCard";
import { FormErrors } from "../components/form/FormErrors";
import { PasswordField } from "../components/form/PasswordField";
import { PhoneField } from "../components/form/PhoneField";
import { TextField } from "../components/form/TextField";
import { DefaultCheckbox } from "../components/form/CheckField";
import { useRouteAction } from "../components/form/useRouteAction";
import type { Account } from "../../contract/account";
import { answer, intentOf, textOf, unknownIntent } from "../lib/actions";
import { register } from "../lib/api/account";
import { browserApi } from "../lib/api/browser";
import { FORM_OPTIONS, formRules, nameInputProps, noAutocompleteProps, noCopyPasteProps } from "../lib/forms";
import { preloadSignIn, signInWith } from "../lib/sign-in";
import { pageMeta } from "../lib/seo";
import { isLocale } from "../lib/locales";
import { useLocalePath, useT } from "../lib/use-locale";
import { SubmitButton } from "../components/form/SubmitButton";
import { scriptRequired } from "../lib/no-script.server";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "register", noindex: true });

/** Posted without JavaScript: the form carries a secret, so it posts, and the page says it needs the script. */
export const action = (args: Route.ActionArgs) => scriptRequired(args);

/** With JavaScript: creates the account and keeps its session in the tab. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const form = await request.formData();
  if (intentOf(form, ["register"] as const) !== "register") return unknownIntent(locale);
  const values = {
    name: textOf(form, "name"),
    email: textOf(form, "email").trim(),
    phone: textOf(form, "phone"),
    password: textOf(form, "password"),
    password_confirmation: textOf(form, "password_confirmation"),
    // The optional marketing consent, unticked unless the shopper ticks it (recorded with its wording).
    marketing: form.get("marketing") === "1",
  };
  return answer(locale, "register", async () => ({
    data: await signInWith((await register(browserApi(locale), values)).data),
  }));
}

type RegisterValues = {
  name: string;
  email: string;
  phone: string;
  password: string;
  password_confirmation: string;
  marketing: boolean;
};

/** Spec §4: register stores userId and token and saves the user; then the emailed code verifies the account. */
export default function Register() {
  const t = useT();
  const to = useLocalePath();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirectTo = params.get("redirect");
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<RegisterValues>({
    ...FORM_OPTIONS,
    initialValues: { name: "", email: "", phone: "", password: "", password_confirmation: "", marketing: false },
  });
  const registering = useRouteAction(form);
  const { serverErrors, serverMessage } = registering;
  useEffect(preloadSignIn, []);
  const labels = {
    name: t("auth.name"),
    email: t("auth.email"),
    phone: t("auth.phone"),
    password: t("auth.password"),
    password_confirmation: t("auth.passwordConfirmation"),
  };

  // React Router reloads the layout's data after the action: the header's account link learns of the session.
  const submit = (values: RegisterValues) =>
    registering.submit<Account>("register", values, {
      loading: t("auth.creatingAccount"),
      success: () => t("auth.accountCreated"),
      onDone: ({ value: user }) => {
        const query = new URLSearchParams({ purpose: "verify", to: user.email ?? values.email.trim() });
        if (redirectTo) query.set("redirect", redirectTo);
        void navigate(`${to("/auth/otp")}?${query}`);
      },
    });

  return (
    <AuthCard
      title={t("pages.register.title")}
      lead={t("auth.registerLead")}
      footer={
        <p>
          {t("auth.haveAccount")}{" "}
          <Link to={redirectTo ? `${to("/auth/login")}?redirect=${encodeURIComponent(redirectTo)}` : to("/auth/login")}>
            {t("auth.signIn")}
          </Link>
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
        <Field name="name" validate={rules.personName(labels.name)}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={labels.name}
              autoComplete="name"
              {...nameInputProps}
              required
            />
          )}
        </Field>
        <Field name="email" validate={[rules.required(labels.email), rules.email()]}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={labels.email}
              type="email"
              autoComplete="email"
              dir="ltr"
              required
            />
          )}
        </Field>
        <Field name="phone" validate={[rules.phone()]}>
          {(field, props) => (
            <PhoneField form={form} field={field} props={props} label={labels.phone} hint={t("auth.phoneHint")} />
          )}
        </Field>
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
              hint={t("auth.confirmationHint")}
              required
            />
          )}
        </Field>
        <Field name="marketing" type="boolean">
          {(field, props) => (
            <DefaultCheckbox
              field={field}
              props={props}
              id="register-marketing"
              label={`${t("consents.marketing")} ${t("privacy.optional")}`}
            />
          )}
        </Field>
        <SubmitButton className="button button--primary button--block">{t("auth.createAccount")}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
