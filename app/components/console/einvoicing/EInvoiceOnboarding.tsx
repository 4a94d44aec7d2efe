import { useForm, type FieldPath, type FieldValues, type FormStore } from "@modular-forms/react";
import { lazy, Suspense, useMemo } from "react";
import { latinDigits } from "../../../../contract/inputs";
import { COMPLIANCE_SAMPLES, type EInvoiceOverview, type EInvoiceRegistration } from "../../../../contract/einvoicing";
import type { FieldError } from "../../../lib/api/errors";
import { FORM_OPTIONS, formRules, type FormRules, type Validator } from "../../../lib/forms";
import { useT } from "../../../lib/use-locale";
import { FormErrors } from "../../form/FormErrors";
import { SubmitButton } from "../../form/SubmitButton";
import { TextField } from "../../form/TextField";
import { useRouteAction, type ActionFields } from "../../form/useRouteAction";
import { complianceDone } from "./steps";

// Only a refusal without field errors needs it, after a submit: it loads then, as FormErrors' does.
const ErrorSummary = lazy(() => import("../../form/ErrorSummary").then((m) => ({ default: m.ErrorSummary })));

/**
 * What the backend refused a step with. Field errors of the form's own fields go on them and into
 * its summary; a refusal of the step as a whole (ZATCA's no, which the API files under `zatca`) is
 * the summary's message. Either way the summary takes the focus, as after a refused submit.
 */
function StepErrors<T extends FieldValues>({
  form,
  fields = [],
  rules,
  serverErrors,
  serverMessage,
  labels,
  idPrefix,
}: {
  form?: FormStore<T, undefined>;
  fields?: string[];
  rules: FormRules;
  serverErrors: FieldError[];
  serverMessage: string;
  labels?: Record<string, string>;
  idPrefix: string;
}) {
  const own = serverErrors.filter((e) => fields.includes(e.type));
  if (serverMessage && own.length === 0)
    return (
      <Suspense fallback={null}>
        <ErrorSummary title={rules.messages.summary} message={serverMessage} errors={[]} idPrefix={idPrefix} />
      </Suspense>
    );
  if (!form) return null;
  return (
    <FormErrors
      form={form}
      messages={rules.messages}
      serverErrors={own}
      serverMessage={serverMessage}
      labels={labels}
      idPrefix={idPrefix}
    />
  );
}

/** A field of `length` digits (Arabic-Indic ones count); empty is for `required` to say. */
const digits =
  (length: number, message: string): Validator =>
  (value) => {
    const text = latinDigits((value ?? "").trim());
    return text === "" || new RegExp(`^\\d{${length}}$`).test(text) ? "" : message;
  };

/** The registration as the form holds it: the contract's shape, as a type the form library can index. */
type Plain<T> = { [K in keyof T]: T[K] extends object ? Plain<T[K]> : T[K] };
type RegistrationValues = Plain<EInvoiceRegistration>;

const EMPTY: RegistrationValues = {
  crn: "",
  branch: "",
  industry: "",
  address: { street: "", building_number: "", additional_number: "", district: "", city: "", postal_code: "" },
};

type RegistrationField = FieldPath<RegistrationValues> & (`address.${string}` | "crn" | "branch" | "industry");

/** The registration form's fields: name, limit, digits they must be, and whether a hint explains them. */
const REGISTRATION_FIELDS: { name: RegistrationField; max?: number; digits?: number; hint?: boolean }[] = [
  { name: "crn", digits: 10, hint: true },
  { name: "branch", max: 60 },
  { name: "industry", max: 60, hint: true },
  { name: "address.street", max: 120 },
  { name: "address.building_number", digits: 4, hint: true },
  { name: "address.additional_number", digits: 4, hint: true },
  { name: "address.district", max: 80 },
  { name: "address.city", max: 80 },
  { name: "address.postal_code", digits: 5, hint: true },
];

const keyOf = (name: string) => name.replace("address.", "");

/** Step 1: the unit's details (the CSR's fields and the seller's on every document). */
function RegistrationForm({ registration }: { registration: EInvoiceRegistration | null }) {
  const t = useT();
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<RegistrationValues>({
    ...FORM_OPTIONS,
    initialValues: registration ?? EMPTY,
  });
  const saving = useRouteAction(form);
  const label = (name: string) => t(`console.einvoicing.fields.${keyOf(name)}`);
  const labels = Object.fromEntries(REGISTRATION_FIELDS.map((f) => [f.name, label(f.name)]));

  const save = (values: RegistrationValues) => {
    const fields: ActionFields = { crn: values.crn, branch: values.branch, industry: values.industry };
    for (const [key, value] of Object.entries(values.address)) fields[`address.${key}`] = value;
    return saving.submit("register", fields, {
      loading: t("console.einvoicing.working"),
      success: () => t("console.einvoicing.register.done"),
    });
  };

  const field = (spec: (typeof REGISTRATION_FIELDS)[number]) => (
    <Field
      key={spec.name}
      name={spec.name}
      validate={[
        rules.required(label(spec.name)),
        ...(spec.max ? [rules.maxLength(label(spec.name), spec.max)] : []),
        ...(spec.digits ? [digits(spec.digits, t(`console.einvoicing.errors.${keyOf(spec.name)}`))] : []),
      ]}
    >
      {(store, props) => (
        <TextField
          form={form}
          field={store}
          props={props}
          label={label(spec.name)}
          hint={spec.hint ? t(`console.einvoicing.hints.${keyOf(spec.name)}`) : undefined}
          idPrefix="einv-register"
          required
          autoComplete="off"
          {...(spec.digits ? { inputMode: "numeric" as const, dir: "ltr" } : {})}
        />
      )}
    </Field>
  );

  return (
    <Form className="form einv-form" onSubmit={save} shouldFocus={false} aria-labelledby="einv-register-title">
      <StepErrors
        form={form}
        fields={REGISTRATION_FIELDS.map((f) => f.name)}
        rules={rules}
        serverErrors={saving.serverErrors}
        serverMessage={saving.serverMessage}
        labels={labels}
        idPrefix="einv-register"
      />
      <div className="console-grid">{REGISTRATION_FIELDS.slice(0, 3).map(field)}</div>
      <fieldset className="einv-fieldset">
        <legend>{t("console.einvoicing.fields.address")}</legend>
        <div className="console-grid">{REGISTRATION_FIELDS.slice(3).map(field)}</div>
      </fieldset>
      <SubmitButton disabled={saving.busy}>{t("console.einvoicing.register.submit")}</SubmitButton>
    </Form>
  );
}

/** The Fatoora portal's one-time password, for the compliance certificate or the production one's renewal. */
function OtpForm({
  intent,
  idPrefix,
  submitLabel,
  done,
}: {
  intent: "compliance" | "renew";
  idPrefix: string;
  submitLabel: string;
  done: string;
}) {
  const t = useT();
  const rules = useMemo(() => formRules(t), [t]);
  const [form, { Form, Field }] = useForm<{ otp: string }>({ ...FORM_OPTIONS, initialValues: { otp: "" } });
  const sending = useRouteAction(form);
  const label = t("console.einvoicing.otp");
  return (
    <Form
      className="form einv-form einv-form--otp"
      onSubmit={(values) =>
        sending.submit(intent, values, { loading: t("console.einvoicing.working"), success: () => done })
      }
      shouldFocus={false}
      aria-labelledby={`${idPrefix}-title`}
    >
      <StepErrors
        form={form}
        fields={["otp"]}
        rules={rules}
        serverErrors={sending.serverErrors}
        serverMessage={sending.serverMessage}
        labels={{ otp: label }}
        idPrefix={idPrefix}
      />
      <Field name="otp" validate={[rules.required(label), digits(6, t("console.einvoicing.errors.otp"))]}>
        {(store, props) => (
          <TextField
            form={form}
            field={store}
            props={props}
            label={label}
            idPrefix={idPrefix}
            required
            inputMode="numeric"
            autoComplete="one-time-code"
            dir="ltr"
            maxLength={6}
          />
        )}
      </Field>
      <SubmitButton disabled={sending.busy}>{submitLabel}</SubmitButton>
    </Form>
  );
}

/** Step 3's one button: the production certificate, once every check passed. */
function ProductionButton() {
  const t = useT();
  const rules = useMemo(() => formRules(t), [t]);
  const going = useRouteAction();
  return (
    <form
      className="einv-form"
      onSubmit={(e) => {
        e.preventDefault();
        void going.submit(
          "production",
          {},
          { loading: t("console.einvoicing.working"), success: () => t("console.einvoicing.production.done") },
        );
      }}
    >
      <StepErrors
        rules={rules}
        serverErrors={going.serverErrors}
        serverMessage={going.serverMessage}
        idPrefix="einv-production"
      />
      <SubmitButton disabled={going.busy}>{t("console.einvoicing.production.submit")}</SubmitButton>
    </form>
  );
}

/** What the unit was registered with, to read (after the CSR was used, or for managers). */
function RegistrationFacts({ registration }: { registration: EInvoiceRegistration }) {
  const t = useT();
  const { address } = registration;
  const fact = (key: string, value: string, ltr = false) => (
    <div key={key}>
      <dt>{t(`console.einvoicing.fields.${key}`)}</dt>
      <dd>{ltr ? <bdi dir="ltr">{value}</bdi> : value}</dd>
    </div>
  );
  return (
    <dl className="console-facts" data-registration>
      {fact("crn", registration.crn, true)}
      {fact("branch", registration.branch)}
      {fact("industry", registration.industry)}
      <div>
        <dt>{t("console.einvoicing.fields.address")}</dt>
        <dd>
          <address className="einv-address">
            {t("console.einvoicing.addressLine1", {
              building: address.building_number,
              street: address.street,
              district: address.district,
            })}
            <br />
            {t("console.einvoicing.addressLine2", {
              city: address.city,
              postal: address.postal_code,
              additional: address.additional_number,
            })}
          </address>
        </dd>
      </div>
    </dl>
  );
}

/** ZATCA's six compliance checks, each with whether the unit passed it. */
function ComplianceChecks({ passed }: { passed: EInvoiceOverview["compliance_passed"] }) {
  const t = useT();
  return (
    <>
      <h3 id="einv-checks">{t("console.einvoicing.compliance.checks")}</h3>
      <ul className="einv-checks" aria-labelledby="einv-checks" data-compliance-checks>
        {COMPLIANCE_SAMPLES.map((sample) => {
          const ok = passed.includes(sample);
          return (
            <li key={sample} data-sample={sample} data-passed={ok}>
              <span className="einv-checks__mark" data-passed={ok} aria-hidden="true">
                {ok ? "✓" : "✕"}
              </span>
              {t(`console.einvoicing.samples.${sample}`)}
              <span className="visually-hidden">
                {" "}
                ({t(ok ? "console.einvoicing.compliance.passed" : "console.einvoicing.compliance.notPassed")})
              </span>
            </li>
          );
        })}
      </ul>
      <p className="console-hint">
        {t("console.einvoicing.compliance.summary", { passed: passed.length, total: COMPLIANCE_SAMPLES.length })}
      </p>
    </>
  );
}

/**
 * Onboarding in three steps, each a panel: register the unit, get the compliance certificate with the
 * portal's OTP (the six checks follow), get the production certificate; in production, renew it.
 * Owners act; managers read where the unit stands.
 */
export function EInvoiceOnboarding({ overview, owner }: { overview: EInvoiceOverview; owner: boolean }) {
  const t = useT();
  const { status, registration } = overview;
  const passed = complianceDone(overview);
  // Until the compliance certificate, the registration is the step itself; later an owner may still
  // correct it (the backend makes a new CSR before production, keeps the certificate in production).
  const registering = owner && (status === "unregistered" || status === "registered");
  const canComply = owner && (status === "registered" || (status === "compliance" && !passed));
  return (
    <>
      {!owner ? <p className="notice notice--info einv-notice">{t("console.einvoicing.ownerOnly")}</p> : null}

      <section className="console-panel einv-step" aria-labelledby="einv-register-title" data-step-panel="register">
        <h2 id="einv-register-title">{t("console.einvoicing.register.title")}</h2>
        {registering ? (
          <>
            <p className="console-hint">{t("console.einvoicing.register.intro")}</p>
            <RegistrationForm key={JSON.stringify(registration)} registration={registration} />
          </>
        ) : registration ? (
          <>
            <RegistrationFacts registration={registration} />
            {owner ? (
              <details className="einv-correct">
                <summary>{t("console.einvoicing.register.correct")}</summary>
                <p className="console-hint">
                  {t(
                    status === "production"
                      ? "console.einvoicing.register.correctProduction"
                      : "console.einvoicing.register.correctCompliance",
                  )}
                </p>
                <RegistrationForm key={JSON.stringify(registration)} registration={registration} />
              </details>
            ) : null}
          </>
        ) : (
          <p className="console-hint">{t("console.einvoicing.register.none")}</p>
        )}
      </section>

      <section className="console-panel einv-step" aria-labelledby="einv-compliance-title" data-step-panel="compliance">
        <h2 id="einv-compliance-title">{t("console.einvoicing.compliance.title")}</h2>
        {canComply ? (
          <>
            <p className="console-hint">{t("console.einvoicing.compliance.intro")}</p>
            {overview.environment === "developer-portal" ? (
              <p className="console-hint">{t("console.einvoicing.compliance.testOtp")}</p>
            ) : null}
            <OtpForm
              intent="compliance"
              idPrefix="einv-compliance"
              submitLabel={t("console.einvoicing.compliance.submit")}
              done={t("console.einvoicing.compliance.done")}
            />
          </>
        ) : status === "unregistered" ? (
          <p className="console-hint">{t("console.einvoicing.compliance.waiting")}</p>
        ) : null}
        {status === "compliance" || status === "production" ? (
          <ComplianceChecks passed={overview.compliance_passed} />
        ) : null}
      </section>

      <section className="console-panel einv-step" aria-labelledby="einv-production-title" data-step-panel="production">
        <h2 id="einv-production-title">{t("console.einvoicing.production.title")}</h2>
        {status === "production" ? (
          <p className="notice notice--ok einv-notice" data-in-production>
            {t("console.einvoicing.production.live")}
          </p>
        ) : passed ? (
          <>
            <p className="console-hint">{t("console.einvoicing.production.intro")}</p>
            {owner ? <ProductionButton /> : null}
          </>
        ) : (
          <p className="console-hint">{t("console.einvoicing.production.waiting")}</p>
        )}
        {status === "production" && owner ? (
          <>
            <h3 id="einv-renew-title">{t("console.einvoicing.renew.title")}</h3>
            <p className="console-hint">{t("console.einvoicing.renew.intro")}</p>
            <OtpForm
              intent="renew"
              idPrefix="einv-renew"
              submitLabel={t("console.einvoicing.renew.submit")}
              done={t("console.einvoicing.renew.done")}
            />
          </>
        ) : null}
      </section>
    </>
  );
}
