import { getValue, setValue, useForm, type FormStore } from "@modular-forms/react";
import { useSignals } from "@preact/signals-react/runtime";
import { useSetAtom } from "jotai";
import { lazy, Suspense, useMemo, type ReactNode } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { Link } from "../../lib/link";
import { FormErrors } from "../form/FormErrors";
import { PhoneField } from "../form/PhoneField";
import { SubmitButton } from "../form/SubmitButton";
import { TextField } from "../form/TextField";
import { useFormSubmit } from "../form/useFormSubmit";
import { updateProfile } from "../../lib/api/account";
import { browserApi } from "../../lib/api/browser";
import type { Account } from "../../../contract/account";
import { FORM_OPTIONS, formRules, nameInputProps } from "../../lib/forms";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";
import { currentUserAtom } from "../../state/user";

export type ProfileValues = { name: string; email: string; phone: string; current_password: string; code: string };
/** The backend's profile: a new email waits in `pending_email` until its code is entered. */
type ProfileUser = Account;

/** The phone as the backend compares it: without spaces, dashes, brackets or dots. */
const samePhone = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? "").replace(/[\s\-().]/g, "") === (b ?? "").replace(/[\s\-().]/g, "");
const sameEmail = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? "").trim().toLowerCase() === (b ?? "").trim().toLowerCase();

/** Whether the form now asks for another email or phone than the account has (then the password is needed). */
function contactChanged(form: FormStore<ProfileValues, undefined>, user: ProfileUser): boolean {
  return !sameEmail(getValue(form, "email"), user.email) || !samePhone(getValue(form, "phone"), user.phone);
}

/** Renders its children only while the email or phone differs from the account's; follows the fields as they change. */
function WhenContactChanged({
  form,
  user,
  children,
}: {
  form: FormStore<ProfileValues, undefined>;
  user: ProfileUser;
  children: ReactNode;
}) {
  useSignals();
  return contactChanged(form, user) ? <>{children}</> : null;
}

/** The code proof of a code-only account's change, loaded only for such an account (the page's budget). */
const CodeProof = lazy(() => import("./CodeProof"));

/** The current password's field, shown only once the email or phone is changed: loaded then (the page's budget). */
const PasswordField = lazy(() =>
  import("../form/PasswordField").then((m) => ({
    default: m.PasswordField<ProfileValues, undefined, "current_password">,
  })),
);

/**
 * The profile's edit section: name, email and phone (DESIGN §4). Changing the email or the phone
 * asks for the current password (the backend refuses it otherwise), or for an account with no
 * password a fresh sign-in code sent to its current phone or email; a new email takes effect once
 * the code sent to it is entered, so after saving the visitor goes to the code page.
 */
export function EditProfile({ user }: { user: ProfileUser }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const setUser = useSetAtom(currentUserAtom);
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<ProfileValues>({
    ...FORM_OPTIONS,
    initialValues: {
      name: user.name,
      email: user.email ?? "",
      phone: user.phone ?? "",
      current_password: "",
      code: "",
    },
  });
  const { serverErrors, serverMessage, run } = useFormSubmit(form);
  const labels = {
    name: t("auth.name"),
    email: t("auth.email"),
    phone: t("auth.phone"),
    current_password: t("profile.currentPassword"),
    code: t("codeSignIn.code"),
  };
  const codeOnly = user.code_only === true;
  // Where the proof code goes: the account's current phone, else its email.
  const proofTo = user.phone ?? user.email ?? "";
  const codePage = (email: string) => to(`/auth/otp?purpose=verify&to=${encodeURIComponent(email)}`);

  const submit = async (values: ProfileValues) => {
    const changed = contactChanged(form, user);
    const saved = await run(
      t("profile.saving"),
      async () => {
        const res = await updateProfile(browserApi(locale), {
          name: values.name,
          email: values.email.trim(),
          phone: values.phone,
          // Sent only for a change of email or phone: a name alone needs no password (nor code).
          ...(changed && codeOnly ? { code: (await import("./CodeProof")).latinCode(values.code) } : {}),
          ...(changed && !codeOnly ? { current_password: values.current_password } : {}),
        });
        // The own server's copy follows before the success shows, so every page agrees at once.
        // Loaded when a save succeeds: the edit page's first load carries no identity module.
        await (
          await import("../../lib/identity")
        )
          .saveStoredUser(res.data)
          .catch((error: unknown) => console.warn("[profile] the stored user was not refreshed", error));
        return res;
      },
      (res) => res.message || t("profile.saved"),
    );
    if (!saved) return;
    setValue(form, "current_password", "");
    setValue(form, "code", "");
    setUser(saved.data);
    const pending = saved.data.pending_email;
    // A new email was asked for: its code is the next step.
    if (pending && !sameEmail(values.email, user.email)) {
      await navigate(codePage(pending));
      return;
    }
    void revalidator.revalidate();
  };

  return (
    <section className="card profile-card" aria-labelledby="edit-title">
      <h2 id="edit-title">{t("profile.editTitle")}</h2>
      {user.pending_email ? (
        <p className="muted" role="status">
          {t("profile.pendingEmail", { email: user.pending_email })}{" "}
          <Link to={codePage(user.pending_email)}>{t("profile.enterCode")}</Link>
        </p>
      ) : null}
      <Form method="post" className="form" onSubmit={submit} shouldFocus={false} aria-labelledby="edit-title">
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
        {/* An account made by a phone code may have no email yet: it is added here, or left empty. */}
        <Field name="email" validate={user.email ? [rules.required(labels.email), rules.email()] : [rules.email()]}>
          {(field, props) => (
            <TextField
              form={form}
              field={field}
              props={props}
              label={labels.email}
              type="email"
              autoComplete="email"
              dir="ltr"
              required={user.email !== null}
            />
          )}
        </Field>
        <Field name="phone" validate={[rules.phone()]}>
          {(field, props) => (
            <PhoneField form={form} field={field} props={props} label={labels.phone} hint={t("auth.phoneHint")} />
          )}
        </Field>
        {codeOnly ? (
          <Field
            name="code"
            validate={[
              (value) =>
                contactChanged(form, user) && !/^[0-9٠-٩۰-۹]{6}$/.test((value ?? "").trim())
                  ? t("codeSignIn.profile.codeNeeded")
                  : "",
            ]}
          >
            {(field, props) => (
              <WhenContactChanged form={form} user={user}>
                <Suspense>
                  <CodeProof to={proofTo} form={form} field={field} props={props} label={labels.code} />
                </Suspense>
              </WhenContactChanged>
            )}
          </Field>
        ) : null}
        {codeOnly ? null : (
          <Field
            name="current_password"
            validate={[
              (value) => (contactChanged(form, user) && !(value ?? "") ? t("profile.currentPasswordNeeded") : ""),
              rules.bound(labels.current_password, "passwordMax"),
            ]}
          >
            {(field, props) => (
              <WhenContactChanged form={form} user={user}>
                <Suspense>
                  <PasswordField
                    form={form}
                    field={field}
                    props={props}
                    label={labels.current_password}
                    autoComplete="current-password"
                    hint={t("profile.currentPasswordHint")}
                    required
                  />
                </Suspense>
              </WhenContactChanged>
            )}
          </Field>
        )}
        <div className="form__actions">
          <SubmitButton className="button button--primary">{t("profile.save")}</SubmitButton>
        </div>
      </Form>
      {codeOnly ? (
        <p className="muted">
          {t("codeSignIn.profile.noPassword")}{" "}
          <Link to={to("/auth/forget-password")}>{t("codeSignIn.profile.setPassword")}</Link>
        </p>
      ) : null}
    </section>
  );
}
