import { useForm } from "@modular-forms/react";
import { useMemo, useState } from "react";
import { useNavigate } from "react-router";
import type { Route } from "./+types/sign-in";
import { toast } from "../../client/toast";
import { FormErrors } from "../../components/form/FormErrors";
import { SubmitButton } from "../../components/form/SubmitButton";
import { TextField } from "../../components/form/TextField";
import { useFormSubmit } from "../../components/form/useFormSubmit";
import { openConsole, sendConsoleCode } from "../../lib/api/console";
import { browserApi } from "../../lib/api/browser";
import { ApiError } from "../../lib/api/errors";
import { consoleContext, consoleMeta } from "../../lib/console";
import { FORM_OPTIONS, formRules } from "../../lib/forms";
import { formatDate } from "../../lib/orders";
import { toLatinDigits } from "../../lib/phone-text";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";
import { scriptRequired } from "../../lib/no-script.server";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.signIn.title");

/** Why no code opens this seat now, if so: said before the staff member asks for one. */
export function loader({ context }: Route.LoaderArgs) {
  const me = context.get(consoleContext);
  return { locked: me?.locked ?? null, frozenUntil: me?.frozen_until ?? null };
}

/** Posted without JavaScript: the form carries a secret, so it posts, and the page says it needs the script. */
export const action = (args: Route.ActionArgs) => scriptRequired(args);

type CodeValues = { code: string };

/**
 * The console's second step: signed in to the shop, a staff member asks for a code by
 * email and enters it. Sending is a button, not an effect on arrival: opening the page sends nothing.
 */
export default function ConsoleSignIn({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const rules = useMemo(() => formRules(t), [t]);
  const [sent, setSent] = useState(false);
  const [form, { Form, Field }] = useForm<CodeValues>({ ...FORM_OPTIONS, initialValues: { code: "" } });
  const { serverErrors, serverMessage, run } = useFormSubmit(form);
  const label = t("console.fields.staff_code");

  const send = async () => {
    const id = toast.loading(t("console.signIn.sending"));
    try {
      const res = await sendConsoleCode(browserApi(locale));
      toast.success(res.message || t("console.signIn.sent"), { id });
      setSent(true);
    } catch (error) {
      toast.error(error instanceof ApiError && error.message ? error.message : t("errors.default"), { id });
    }
  };

  const submit = async (values: CodeValues) => {
    const code = toLatinDigits(values.code).replace(/\D/g, "");
    const opened = await run(t("console.signIn.checking"), () => openConsole(browserApi(locale), code));
    if (opened) await navigate(to("/admin"), { replace: true });
  };

  return (
    <section className="console-signin" aria-labelledby="console-signin-title">
      <h1 id="console-signin-title">{t("console.signIn.title")}</h1>
      <p>{t("console.signIn.lead")}</p>
      {loaderData.locked ? (
        <p className="console-error" role="alert">
          {loaderData.locked === "email_changed"
            ? t("console.signIn.lockedEmail")
            : t("console.signIn.lockedPassword", {
                until: loaderData.frozenUntil ? formatDate(loaderData.frozenUntil, locale, true) : "",
              })}
        </p>
      ) : null}
      <p>
        <button type="button" className={sent ? "button" : "button button--primary"} onClick={() => void send()}>
          {t(sent ? "console.signIn.resend" : "console.signIn.send")}
        </button>
      </p>
      <Form method="post" className="form" onSubmit={submit} shouldFocus={false} aria-labelledby="console-signin-title">
        <FormErrors
          form={form}
          messages={rules.messages}
          serverErrors={serverErrors}
          serverMessage={serverMessage}
          labels={{ code: label }}
        />
        <Field
          name="code"
          validate={[rules.required(label)]}
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
              inputMode="numeric"
              autoComplete="one-time-code"
              required
            />
          )}
        </Field>
        <SubmitButton>{t("console.signIn.open")}</SubmitButton>
      </Form>
    </section>
  );
}
