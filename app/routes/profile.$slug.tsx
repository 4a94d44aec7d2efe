import { getValue, useForm } from "@modular-forms/react";
import { useSetAtom } from "jotai";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { data, useNavigate, useRevalidator } from "react-router";
import type { Route } from "./+types/profile.$slug";
import { isProfileSection, ProfileNav, sectionTitleKey, type ProfileSection } from "../components/ProfileNav";
import type { Address, AddressValues } from "../components/form/AddressForm";
import { FormErrors } from "../components/form/FormErrors";
import { PasswordField } from "../components/form/PasswordField";
import { PhoneField } from "../components/form/PhoneField";
import { TextField } from "../components/form/TextField";
import { useFormSubmit } from "../components/form/useFormSubmit";
import { browserApi, handleBrowserError } from "../lib/api/browser";
import { ApiError } from "../lib/api/errors";
import { handleServerError, serverApi } from "../lib/api/server";
import { shopContext, type SessionUser } from "../lib/context";
import { FORM_OPTIONS, formRules, nameInputProps, noAutocompleteProps, noCopyPasteProps } from "../lib/forms";
import { restoreIdentity, saveStoredUser, type AuthUser } from "../lib/identity";
import { isLocale } from "../lib/locales";
import { pageMeta } from "../lib/seo";
import { useLocale, useT } from "../lib/use-locale";
import { authMiddleware } from "../middleware/auth";
import { currentUserAtom } from "../state/session";
import "../styles/account.css";
import { SubmitButton } from "../components/form/SubmitButton";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

/** Each section brings only its own code: the orders list loads on the orders tab. */
const OrderList = lazy(() => import("../components/OrderList").then((m) => ({ default: m.OrderList })));

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/**
 * A profile section: orders, addresses, edit, change-password (DESIGN §4). The `auth` guard
 * sent anonymous visitors to login; an unknown slug is a 404.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const slug = params.slug;
  if (!isProfileSection(slug)) {
    throw data(`Page not found: ${new URL(request.url).pathname}`, { status: 404, statusText: "Not Found" });
  }
  const session = await context.get(shopContext).getSession();
  if (!session) throw data("Unauthorized", { status: 401 });
  const api = await serverApi(context, request, locale);
  try {
    const user = (await api.get<SessionUser>("/client/auth/profile")).data;
    const addresses = slug === "addresses" ? (await api.get<Address[]>("/client/addresses")).data : [];
    return { slug, user, addresses, identity: { token: session.token, userId: user.id } };
  } catch (error) {
    handleServerError(error, locale);
    throw error;
  }
}

export default function ProfileSectionPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { slug, user, addresses, identity } = loaderData;
  const setUser = useSetAtom(currentUserAtom);
  useEffect(() => {
    restoreIdentity(identity);
    setUser(user);
  }, [identity, user, setUser]);
  const section = slug as ProfileSection;

  return (
    <div className="container page profile-page">
      <h1>{t(sectionTitleKey(section))}</h1>
      <div className="profile-layout">
        <ProfileNav />
        <div className="profile-main">
          {section === "orders" ? (
            <Suspense fallback={<p className="muted">{t("app.loading")}</p>}>
              <OrderList />
            </Suspense>
          ) : null}
          {section === "addresses" ? <Addresses initial={addresses} /> : null}
          {section === "edit" ? <EditProfile user={user} /> : null}
          {section === "change-password" ? <ChangePassword /> : null}
        </div>
      </div>
    </div>
  );
}

/* ---------- Edit ---------- */

type ProfileValues = { name: string; email: string; phone: string };

function EditProfile({ user }: { user: SessionUser }) {
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

/* ---------- Change password ---------- */

type PasswordValues = { current_password: string; password: string; password_confirmation: string };

function ChangePassword() {
  const t = useT();
  const locale = useLocale();
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<PasswordValues>({ ...FORM_OPTIONS, initialValues: { current_password: "", password: "", password_confirmation: "" } });
  const { serverErrors, serverMessage, run } = useFormSubmit(form);
  const [done, setDone] = useState(false);
  const labels = { current_password: t("profile.currentPassword"), password: t("auth.newPassword"), password_confirmation: t("auth.passwordConfirmation") };

  const submit = async (values: PasswordValues) => {
    setDone(false);
    const saved = await run(t("auth.savingPassword"), () => browserApi(locale).post("/client/auth/change-password", values), (res) => res.message || t("auth.passwordChanged"));
    if (saved) setDone(true);
  };

  return (
    <section className="card profile-card" aria-labelledby="password-title">
      <h2 id="password-title">{t("profile.sections.changePassword")}</h2>
      {done ? <p className="form__success" role="status">{t("auth.passwordChanged")}</p> : null}
      <Form className="form" onSubmit={submit} shouldFocus={false} aria-labelledby="password-title">
        <FormErrors form={form} messages={rules.messages} serverErrors={serverErrors} serverMessage={serverMessage} labels={labels} />
        <Field name="current_password" validate={[rules.required(labels.current_password)]}>
          {(field, props) => <PasswordField form={form} field={field} props={props} label={labels.current_password} autoComplete="current-password" required />}
        </Field>
        <Field name="password" validate={[rules.required(labels.password), rules.minLength(labels.password, 8), rules.maxLength(labels.password, 128)]}>
          {(field, props) => <PasswordField form={form} field={field} props={props} label={labels.password} autoComplete="new-password" hint={t("auth.passwordHint")} required />}
        </Field>
        <Field
          name="password_confirmation"
          validate={[rules.required(labels.password_confirmation), rules.matches(labels.password_confirmation, () => getValue(form, "password"))]}
        >
          {(field, props) => (
            <TextField form={form} field={field} props={props} label={labels.password_confirmation} type="password" dir="auto" {...noAutocompleteProps} {...noCopyPasteProps} required />
          )}
        </Field>
        <div className="form__actions">
          <SubmitButton className="button button--primary">{t("auth.savePassword")}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

/* ---------- Addresses ---------- */

/** The address form loads when it is opened, keeping the section's first load small. */
const AddressForm = lazy(() => import("../components/form/AddressForm").then((m) => ({ default: m.AddressForm })));

type Editing = { mode: "none" } | { mode: "add" } | { mode: "edit"; id: number };

function toPayload(values: AddressValues) {
  return { ...values, phone: values.phone, is_default: Boolean(values.is_default) };
}

function Addresses({ initial }: { initial: Address[] }) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const [addresses, setAddresses] = useState<Address[]>(initial);
  const [editing, setEditing] = useState<Editing>(initial.length ? { mode: "none" } : { mode: "add" });
  const [confirming, setConfirming] = useState<number | null>(null);
  const [status, setStatus] = useState("");

  const reload = async () => {
    const res = await browserApi(locale).get<Address[]>("/client/addresses");
    setAddresses(Array.isArray(res.data) ? res.data : []);
  };

  const save = async (values: AddressValues, id?: number) => {
    const api = browserApi(locale);
    if (id === undefined) await api.post<Address>("/client/addresses", toPayload(values));
    else await api.put<Address>(`/client/addresses/${id}`, toPayload(values));
    await reload();
    setEditing({ mode: "none" });
    setStatus(t(id === undefined ? "address.added" : "address.updated"));
  };

  const remove = async (id: number) => {
    try {
      await browserApi(locale).delete(`/client/addresses/${id}`);
      await reload();
      setStatus(t("address.deleted"));
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) handleBrowserError(error, locale, (to) => void navigate(to));
      await reload().catch(() => undefined);
    } finally {
      setConfirming(null);
    }
  };

  return (
    <section className="profile-addresses" aria-labelledby="addresses-title">
      <div className="section__head">
        <h2 id="addresses-title">{t("address.title")}</h2>
        {editing.mode === "none" ? (
          <button type="button" className="button button--primary" onClick={() => setEditing({ mode: "add" })}>
            {t("address.add")}
          </button>
        ) : null}
      </div>
      <p className="visually-hidden" role="status">{status}</p>
      {editing.mode === "add" ? (
        <div className="card profile-card">
          <h3>{t("address.newTitle")}</h3>
          <Suspense fallback={<p className="muted">{t("app.loading")}</p>}>
          <AddressForm
            idPrefix="new-address"
            submitLabel={t("address.save")}
            savingLabel={t("address.saving")}
            onSave={(values) => save(values)}
            onCancel={addresses.length ? () => setEditing({ mode: "none" }) : undefined}
          />
          </Suspense>
        </div>
      ) : null}
      {addresses.length === 0 && editing.mode !== "add" ? <p className="muted">{t("address.empty")}</p> : null}
      <ul className="address-list">
        {addresses.map((a) => (
          <li key={a.id} className="card address-card">
            {editing.mode === "edit" && editing.id === a.id ? (
              <>
                <h3>{t("address.editTitle")}</h3>
                <Suspense fallback={<p className="muted">{t("app.loading")}</p>}>
                <AddressForm
                  idPrefix={`address-${a.id}`}
                  initial={a}
                  submitLabel={t("address.save")}
                  savingLabel={t("address.saving")}
                  onSave={(values) => save(values, a.id)}
                  onCancel={() => setEditing({ mode: "none" })}
                />
                </Suspense>
              </>
            ) : (
              <>
                <div className="address-card__head">
                  <h3 className="address-card__title">{a.label || a.name}</h3>
                  {a.is_default ? <span className="profile-badge profile-badge--ok">{t("address.default")}</span> : null}
                </div>
                <address className="address-card__body">
                  <span>{a.name}</span>
                  <span>{[a.street, a.building].filter(Boolean).join(", ")}</span>
                  <span>{[a.district, a.city, a.postal_code].filter(Boolean).join(", ")}</span>
                  <bdi dir="ltr">{a.phone}</bdi>
                  {a.notes ? <span className="muted">{a.notes}</span> : null}
                </address>
                <div className="address-card__actions">
                  <button type="button" className="button" onClick={() => setEditing({ mode: "edit", id: a.id })} aria-label={`${t("address.edit")}: ${a.label || a.name}`}>
                    {t("address.edit")}
                  </button>
                  {confirming === a.id ? (
                    <>
                      <button type="button" className="button button--danger" onClick={() => void remove(a.id)}>{t("address.confirmDelete")}</button>
                      <button type="button" className="button button--ghost" onClick={() => setConfirming(null)}>{t("address.cancel")}</button>
                    </>
                  ) : (
                    <button type="button" className="button button--ghost" onClick={() => setConfirming(a.id)} aria-label={`${t("address.delete")}: ${a.label || a.name}`}>
                      {t("address.delete")}
                    </button>
                  )}
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
