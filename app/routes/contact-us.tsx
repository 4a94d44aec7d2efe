import { reset, useForm } from "@modular-forms/react";
import { useMemo } from "react";
import { data, useActionData, useSearchParams } from "react-router";
import { toast } from "../client/toast";
import type { Route } from "./+types/contact-us";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { FormErrors } from "../components/form/FormErrors";
import { PhoneField } from "../components/form/PhoneField";
import { TextField } from "../components/form/TextField";
import { useFormSubmit } from "../components/form/useFormSubmit";
import { browserApi } from "../lib/api/browser";
import { sendContactMessage } from "../lib/api/content";
import { serverApi } from "../lib/api/server";
import { ApiError } from "../lib/api/errors";
import { FORM_OPTIONS, formRules, nameInputProps } from "../lib/forms";
import { contactRules } from "../lib/input-rules";
import { LIMITS } from "../../contract/limits";
import { failLoad, routeLocale } from "../lib/loaders";
import { pageMeta } from "../lib/seo";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import catalogueCss from "../styles/catalogue.css?url";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "contact" });

type ContactValues = { name: string; email: string; phone: string; subject: string; message: string };

const FIELDS = ["name", "email", "phone", "subject", "message"] as const;

/**
 * Without JavaScript the form posts here and the server sends it on; the backend validates it
 * (422 answers come back with their field messages). With JavaScript the browser posts itself.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const locale = routeLocale(params, context);
  const form = await request.formData();
  const body: Record<string, string | undefined> = {};
  for (const field of FIELDS) {
    const value = form.get(field);
    const text = typeof value === "string" ? value.trim() : "";
    // The phone is optional: left out when empty; the others go as typed, so the backend names what is missing.
    body[field] = field === "phone" && text === "" ? undefined : text;
  }
  const api = await serverApi(context, request, locale);
  try {
    const res = await sendContactMessage(api, body);
    return { ok: true as const, message: res.message ?? "", errors: {} as Record<string, string[]> };
  } catch (error) {
    if (error instanceof ApiError && [400, 422, 429].includes(error.status)) {
      return data({ ok: false as const, message: error.message, errors: error.errors }, { status: error.status });
    }
    failLoad(error, locale);
  }
}

/** The contact form: POST /contact; 422 answers land on the fields; success and failure toast. */
export default function ContactUs() {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const [params] = useSearchParams();
  const posted = useActionData<typeof action>();
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<ContactValues>({
    ...FORM_OPTIONS,
    initialValues: {
      name: "",
      email: "",
      phone: "",
      subject: (params.get("subject") ?? "").slice(0, LIMITS.subject),
      message: "",
    },
  });
  const { serverErrors, serverMessage, fail, clear } = useFormSubmit(form);
  const labels = {
    name: t("contact.name"),
    email: t("contact.email"),
    phone: t("contact.phone"),
    subject: t("contact.subject"),
    message: t("contact.message"),
  };
  // The contract's contact rules (contract/inputs.ts): the same limits the backend checks.
  const check = useMemo(
    () => contactRules(t, labels),
    // The labels follow `t`: they change only with the locale.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );

  const submit = async (values: ContactValues) => {
    clear();
    const id = toast.loading(t("contact.sending"));
    try {
      const body = { ...values, email: values.email.trim(), phone: values.phone || undefined };
      const res = await sendContactMessage(browserApi(locale), body);
      toast.success(res.message || t("contact.sent"), { id });
      reset(form);
    } catch (error) {
      // A refusal the form can show (fields) still gets its toast; the common handler toasts
      // server failures and too many messages (spec §8's "other status") itself.
      if (error instanceof ApiError && [400, 422].includes(error.status)) {
        toast.error(error.message || t("contact.failed"), { id });
      } else toast.dismiss(id);
      fail(error);
    }
  };

  return (
    <div className="container page contact">
      <Stylesheet href={catalogueCss} />
      <Breadcrumbs items={[{ name: t("catalogue.home"), to: to("/") }, { name: t("pages.contact.title") }]} />
      <h1>{t("pages.contact.title")}</h1>
      <p className="lead muted">{t("contact.intro")}</p>
      <div className="contact__grid">
        <Form
          className="form card contact__form"
          method="post"
          onSubmit={submit}
          shouldFocus={false}
          aria-labelledby="contact-form-title"
        >
          <h2 id="contact-form-title" className="visually-hidden">
            {t("pages.contact.title")}
          </h2>
          {posted ? (
            <div className={posted.ok ? "notice notice--ok" : "form__summary"} role={posted.ok ? "status" : "alert"}>
              <p>{posted.message || (posted.ok ? t("contact.sent") : t("contact.failed"))}</p>
              {Object.keys(posted.errors).length > 0 ? (
                <ul>
                  {Object.entries(posted.errors).map(([field, messages]) => (
                    <li key={field}>{`${labels[field as keyof typeof labels] ?? field}: ${messages.join(", ")}`}</li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          <FormErrors
            form={form}
            messages={rules.messages}
            serverErrors={serverErrors}
            serverMessage={serverMessage}
            labels={labels}
            idPrefix="contact"
          />
          <Field name="name" validate={[check.name]}>
            {(field, props) => (
              <TextField
                form={form}
                field={field}
                props={props}
                idPrefix="contact"
                label={labels.name}
                autoComplete="name"
                {...nameInputProps}
                required
              />
            )}
          </Field>
          <Field name="email" validate={[check.email]}>
            {(field, props) => (
              <TextField
                form={form}
                field={field}
                props={props}
                idPrefix="contact"
                label={labels.email}
                type="email"
                autoComplete="email"
                dir="ltr"
                required
              />
            )}
          </Field>
          <Field name="phone" validate={[check.phone, rules.phone()]}>
            {(field, props) => (
              <PhoneField form={form} field={field} props={props} idPrefix="contact" label={labels.phone} />
            )}
          </Field>
          <Field name="subject" validate={[check.subject]}>
            {(field, props) => (
              <TextField form={form} field={field} props={props} idPrefix="contact" label={labels.subject} required />
            )}
          </Field>
          <Field name="message" validate={[check.message]}>
            {(field, props) => (
              <TextField
                form={form}
                field={field}
                props={props}
                idPrefix="contact"
                label={labels.message}
                multiline
                rows={6}
                required
              />
            )}
          </Field>
          <button type="submit" className="button button--primary">
            {t("contact.send")}
          </button>
        </Form>
        <aside className="card contact__aside" aria-labelledby="contact-details">
          <h2 id="contact-details">{t("contact.details")}</h2>
          <dl>
            <dt>{t("contact.phoneLabel")}</dt>
            <dd>
              <a href="tel:+966920000000" dir="ltr">
                <bdi>+966 92 000 0000</bdi>
              </a>
            </dd>
            <dt>{t("contact.emailLabel")}</dt>
            <dd>
              <a href="mailto:support@souq.example">
                <bdi>support@souq.example</bdi>
              </a>
            </dd>
          </dl>
          <p className="muted">{t("contact.hours")}</p>
        </aside>
      </div>
    </div>
  );
}
