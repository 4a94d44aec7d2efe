import { useForm } from "@modular-forms/react";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { Link } from "../lib/link";
import type { Route } from "./+types/auth.login";
import { AuthCard } from "../components/form/AuthCard";
import { ChannelSwitch, type Channel } from "../components/form/ChannelSwitch";
import { FormErrors } from "../components/form/FormErrors";
import { PasswordField } from "../components/form/PasswordField";
import { TextField } from "../components/form/TextField";
import { useRouteAction } from "../components/form/useRouteAction";
import type { Account } from "../../contract/account";
import { answer, intentOf, textOf, unknownIntent } from "../lib/actions";
import { listSocialPlatforms, logIn, type SocialPlatform } from "../lib/api/account";
import { browserApi } from "../lib/api/browser";
import { serverApi } from "../lib/api/server";
import { FORM_OPTIONS, formRules } from "../lib/forms";
import { preloadSignIn, signInWith } from "../lib/sign-in";
import { isLocale } from "../lib/locales";
import { pageMeta } from "../lib/seo";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { authMiddleware, safeRedirect } from "../middleware/auth";
import { SubmitButton } from "../components/form/SubmitButton";
import { scriptRequired } from "../lib/no-script.server";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "login", noindex: true });

/** Posted without JavaScript: the form carries a secret, so it posts, and the page says it needs the script. */
export const action = (args: Route.ActionArgs) => scriptRequired(args);

/** With JavaScript: signs in with the backend and keeps the session in the tab. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const form = await request.formData();
  // The code sign-in's intents live with its component, outside the first load.
  if (textOf(form, "intent").startsWith("code-"))
    return (await import("../lib/code-sign-in")).codeSignInAction(locale, form);
  if (intentOf(form, ["login"] as const) !== "login") return unknownIntent(locale);
  const password = textOf(form, "password");
  const credentials =
    textOf(form, "channel") === "phone"
      ? { phone: textOf(form, "phone"), password }
      : { email: textOf(form, "email").trim(), password };
  return answer(locale, "login", async () => ({
    data: await signInWith((await logIn(browserApi(locale), credentials)).data),
  }));
}

/** Social sign-in shows a button only for a provider the backend lists (none by default). */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  try {
    const api = await serverApi(context, request, locale);
    const res = await listSocialPlatforms(api);
    const platforms = Array.isArray(res.data) ? res.data.filter((p) => /^https:\/\//.test(p.authorize_url)) : [];
    return { platforms };
  } catch {
    return { platforms: [] as SocialPlatform[] };
  }
}

type LoginValues = { email: string; phone: string; password: string };

/** Sign in with a code: the phone's first way, loaded when the phone is chosen (the page's budget). */
const CodeSignIn = lazy(() => import("../components/auth/CodeSignIn"));

/**
 * The phone field of the password form, loaded when the phone and then the password are chosen:
 * the page opens on the email, and the phone input's module stays out of its first load (budget).
 */
const PhoneField = lazy(() =>
  import("../components/form/PhoneField").then((m) => ({
    default: m.PhoneField<LoginValues, undefined, "phone">,
  })),
);

export default function Login({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirectTo = params.get("redirect");
  const rules = useMemo(() => formRules(t), [t]);
  const [channel, setChannel] = useState<Channel>("email");
  // A code is the phone's first way; the email opens on the password and offers a code too.
  const [byCode, setByCode] = useState({ email: false, phone: true });
  const [form, { Form, Field }] = useForm<LoginValues>({
    ...FORM_OPTIONS,
    initialValues: { email: "", phone: "", password: "" },
  });
  const signing = useRouteAction(form);
  const { serverErrors, serverMessage } = signing;
  useEffect(preloadSignIn, []);
  const labels = { email: t("auth.email"), phone: t("auth.phone"), password: t("auth.password") };
  const withRedirect = (path: string) => (redirectTo ? `${path}?redirect=${encodeURIComponent(redirectTo)}` : path);

  // React Router reloads the layout's data after the action: the header's account link learns of the session.
  const submit = (values: LoginValues) =>
    signing.submit<Account>(
      "login",
      { ...values, channel },
      {
        loading: t("auth.signingIn"),
        success: (signedIn) => t("auth.welcome", { name: signedIn.value.name }),
        onDone: () => void navigate(safeRedirect(redirectTo, locale) ?? to("/profile"), { replace: true }),
      },
    );

  return (
    <AuthCard
      title={t("pages.login.title")}
      lead={t("auth.loginLead")}
      footer={
        <>
          <p>
            {t("auth.noAccount")} <Link to={withRedirect(to("/auth/register"))}>{t("auth.createAccount")}</Link>
          </p>
        </>
      }
    >
      {loaderData.platforms.length ? (
        <div className="social-buttons">
          {loaderData.platforms.map((p) => (
            <a key={p.id} className="button button--block" href={p.authorize_url}>
              {t("auth.continueWith", { provider: p.name })}
            </a>
          ))}
          <p className="auth-divider">
            <span>{t("auth.or")}</span>
          </p>
        </div>
      ) : null}
      <ChannelSwitch name="login-channel" value={channel} onChange={setChannel} />
      {byCode[channel] ? (
        <Suspense>
          <CodeSignIn
            key={channel}
            channel={channel}
            redirectTo={redirectTo}
            onUsePassword={() => setByCode({ ...byCode, [channel]: false })}
          />
        </Suspense>
      ) : (
        <Form
          method="post"
          className="form auth-form"
          onSubmit={submit}
          shouldFocus={false}
          aria-labelledby="auth-title"
        >
          <FormErrors
            form={form}
            messages={rules.messages}
            serverErrors={serverErrors}
            serverMessage={serverMessage}
            labels={labels}
          />
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
              {(field, props) => (
                <Suspense>
                  <PhoneField form={form} field={field} props={props} label={labels.phone} required />
                </Suspense>
              )}
            </Field>
          )}
          <Field name="password" validate={[rules.required(labels.password)]}>
            {(field, props) => (
              <PasswordField
                form={form}
                field={field}
                props={props}
                label={labels.password}
                autoComplete="current-password"
                required
              />
            )}
          </Field>
          <p className="auth-form__aside auth-form__aside--split">
            <Link to={to("/auth/forget-password")}>{t("auth.forgotPassword")}</Link>{" "}
            <button
              type="button"
              className="code-signin__link"
              onClick={() => setByCode({ ...byCode, [channel]: true })}
            >
              {t("codeSignIn.useCode")}
            </button>
          </p>
          <SubmitButton className="button button--primary button--block">{t("auth.signIn")}</SubmitButton>
        </Form>
      )}
    </AuthCard>
  );
}
