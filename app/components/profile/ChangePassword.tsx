import { getValue, useForm } from "@modular-forms/react";
import { useMemo, useState } from "react";
import { FormErrors } from "../form/FormErrors";
import { PasswordField } from "../form/PasswordField";
import { SubmitButton } from "../form/SubmitButton";
import { TextField } from "../form/TextField";
import { useFormSubmit } from "../form/useFormSubmit";
import { changePassword, checkPassword } from "../../lib/api/account";
import { browserApi } from "../../lib/api/browser";
import { ApiError } from "../../lib/api/errors";
import { currentIdentity } from "../../lib/identity";
import { FORM_OPTIONS, formRules, noAutocompleteProps, noCopyPasteProps } from "../../lib/forms";
import { useLocale, useT } from "../../lib/use-locale";

type PasswordValues = { current_password: string; password: string; password_confirmation: string };

/** The profile's change-password section (DESIGN §4). */
export function ChangePassword() {
  const t = useT();
  const locale = useLocale();
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<PasswordValues>({
    ...FORM_OPTIONS,
    initialValues: { current_password: "", password: "", password_confirmation: "" },
  });
  const { serverErrors, serverMessage, run } = useFormSubmit(form);
  const [done, setDone] = useState(false);
  const labels = {
    current_password: t("profile.currentPassword"),
    password: t("auth.newPassword"),
    password_confirmation: t("auth.passwordConfirmation"),
  };

  const submit = async (values: PasswordValues) => {
    setDone(false);
    const saved = await run(
      t("auth.savingPassword"),
      async () => {
        // Spec §7 check-password first: a wrong current password is said on its field before
        // anything changes; change-password checks it again, so this is never the only guard.
        const api = browserApi(locale);
        const { userId } = currentIdentity();
        const check = await checkPassword(api, values.current_password, userId);
        if (!check.data.valid) {
          const message = check.message || t("errors.default");
          throw new ApiError(422, message, { current_password: [message] });
        }
        return changePassword(api, values, userId);
      },
      (res) => res.message || t("auth.passwordChanged"),
    );
    if (saved) setDone(true);
  };

  return (
    <section className="card profile-card" aria-labelledby="password-title">
      <h2 id="password-title">{t("profile.sections.changePassword")}</h2>
      {done ? (
        <p className="form__success" role="status">
          {t("auth.passwordChanged")}
        </p>
      ) : null}
      <Form method="post" className="form" onSubmit={submit} shouldFocus={false} aria-labelledby="password-title">
        <FormErrors
          form={form}
          messages={rules.messages}
          serverErrors={serverErrors}
          serverMessage={serverMessage}
          labels={labels}
        />
        <Field name="current_password" validate={[rules.required(labels.current_password)]}>
          {(field, props) => (
            <PasswordField
              form={form}
              field={field}
              props={props}
              label={labels.current_password}
              autoComplete="current-password"
              required
            />
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
              required
            />
          )}
        </Field>
        <div className="form__actions">
          <SubmitButton className="button button--primary">{t("auth.savePassword")}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
