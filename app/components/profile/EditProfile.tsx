import { useForm } from "@modular-forms/react";
import { useSetAtom } from "jotai";
import { useMemo } from "react";
import { useRevalidator } from "react-router";
import { FormErrors } from "../form/FormErrors";
import { PhoneField } from "../form/PhoneField";
import { SubmitButton } from "../form/SubmitButton";
import { TextField } from "../form/TextField";
import { useFormSubmit } from "../form/useFormSubmit";
import { browserApi } from "../../lib/api/browser";
import type { SessionUser } from "../../lib/context";
import { FORM_OPTIONS, formRules, nameInputProps } from "../../lib/forms";
import { saveStoredUser, type AuthUser } from "../../lib/identity";
import { useLocale, useT } from "../../lib/use-locale";
import { currentUserAtom } from "../../state/session";

type ProfileValues = { name: string; email: string; phone: string };

/** The profile's edit section: name, email and phone (DESIGN §4). */
export function EditProfile({ user }: { user: SessionUser }) {
  const t = useT();
  const locale = useLocale();
  const revalidator = useRevalidator();
  const setUser = useSetAtom(currentUserAtom);
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<ProfileValues>({
    ...FORM_OPTIONS,
    initialValues: { name: user.name ?? "", email: user.email ?? "", phone: user.phone ?? "" },
  });
  const { serverErrors, serverMessage, run } = useFormSubmit(form);
  const labels = { name: t("auth.name"), email: t("auth.email"), phone: t("auth.phone") };

  const submit = async (values: ProfileValues) => {
    const saved = await run(
      t("profile.saving"),
      async () => {
        const res = await browserApi(locale).post<AuthUser>("/client/auth/profile", { ...values, email: values.email.trim() });
        // The own server's copy follows before the success shows, so every page agrees at once.
        await saveStoredUser(res.data).catch((error: unknown) => console.warn("[profile] the stored user was not refreshed", error));
        return res;
      },
      (res) => res.message || t("profile.saved"),
    );
    if (!saved) return;
    setUser(saved.data);
    void revalidator.revalidate();
  };

  return (
    <section className="card profile-card" aria-labelledby="edit-title">
      <h2 id="edit-title">{t("profile.editTitle")}</h2>
      <Form className="form" onSubmit={submit} shouldFocus={false} aria-labelledby="edit-title">
        <FormErrors form={form} messages={rules.messages} serverErrors={serverErrors} serverMessage={serverMessage} labels={labels} />
        <Field name="name" validate={[rules.required(labels.name), rules.maxLength(labels.name, 100)]}>
          {(field, props) => <TextField form={form} field={field} props={props} label={labels.name} autoComplete="name" {...nameInputProps} required />}
        </Field>
        <Field name="email" validate={[rules.required(labels.email), rules.email()]}>
          {(field, props) => <TextField form={form} field={field} props={props} label={labels.email} type="email" autoComplete="email" dir="ltr" required />}
        </Field>
        <Field name="phone" validate={[rules.phone()]}>
          {(field, props) => <PhoneField form={form} field={field} props={props} label={labels.phone} hint={t("auth.phoneHint")} />}
        </Field>
        <div className="form__actions">
          <SubmitButton className="button button--primary">{t("profile.save")}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}
