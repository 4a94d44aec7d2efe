import { useForm } from "@modular-forms/react";
import { useEffect, useMemo } from "react";
import { useNavigate, useSearchParams } from "react-router";
import type { Route } from "./+types/auth.welcome";
import { AuthCard } from "../components/form/AuthCard";
import { FormErrors } from "../components/form/FormErrors";
import { SubmitButton } from "../components/form/SubmitButton";
import { TextField } from "../components/form/TextField";
import { useRouteAction } from "../components/form/useRouteAction";
import type { Account } from "../../contract/account";
import { toast } from "../client/toast";
import { intentOf, unknownIntent } from "../lib/actions";
import { FORM_OPTIONS, formRules } from "../lib/forms";
import { isLocale } from "../lib/locales";
import { pageMeta } from "../lib/seo";
import { translate } from "../lib/i18n";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { authMiddleware, safeRedirect } from "../middleware/auth";
import { scriptRequired } from "../lib/no-script.server";

/** Signed in only: the page names the account that a code sign-in just made. */
export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const meta: Route.MetaFunction = (args) => {
  const locale = isLocale(args.params.locale) ? args.params.locale : "en";
  return pageMeta(args, {
    page: "login",
    title: translate(locale, "codeSignIn.welcomePage.title"),
    description: translate(locale, "codeSignIn.welcomePage.lead"),
    noindex: true,
  });
};

/** Posted without JavaScript: the page says it needs the script, as the other sign-in steps do. */
export const action = (args: Route.ActionArgs) => scriptRequired(args);

export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const form = await request.formData();
  if (intentOf(form, ["name"] as const) !== "name") return unknownIntent(locale);
  return (await import("../lib/code-sign-in")).nameAction(locale, form);
}

/**
 * The name step after a first code sign-in: an order needs a name, so it is asked before the
 * visitor goes on where they were going (not skippable here; an account left unnamed is asked
 * again at its next code sign-in, and the checkout asks the recipient's name in any case).
 */
export default function Welcome() {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirectTo = params.get("redirect");
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<{ name: string }>({ ...FORM_OPTIONS, initialValues: { name: "" } });
  const saving = useRouteAction(form);
  const label = t("auth.name");

  // The sign-in's "signing you in" toast ended with the page it was on; the name field is next.
  useEffect(() => {
    toast.dismiss();
    document.getElementById("f-name")?.focus();
  }, []);

  const submit = (values: { name: string }) =>
    saving.submit<Account>(
      "name",
      { name: values.name.trim() },
      {
        loading: t("codeSignIn.savingName"),
        success: (saved) => t("auth.welcome", { name: saved.value.name }),
        onDone: () => void navigate(safeRedirect(redirectTo, locale) ?? to("/profile"), { replace: true }),
      },
    );

  return (
    <AuthCard title={t("codeSignIn.welcomePage.title")} lead={t("codeSignIn.welcomePage.lead")}>
      <Form method="post" className="form auth-form" onSubmit={submit} shouldFocus={false} aria-labelledby="auth-title">
        <FormErrors
          form={form}
          messages={rules.messages}
          serverErrors={saving.serverErrors}
          serverMessage={saving.serverMessage}
          labels={{ name: label }}
        />
        <Field name="name" validate={[rules.required(label)]}>
          {(field, props) => (
            <TextField form={form} field={field} props={props} label={label} autoComplete="name" required />
          )}
        </Field>
        <SubmitButton className="button button--primary button--block">{t("codeSignIn.saveName")}</SubmitButton>
      </Form>
    </AuthCard>
  );
}
