import { useAtomValue } from "jotai";
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from "react";
import type { StockAlertChannel, StockAlertRequest } from "../../../contract/stock-alerts";
import { browserApi } from "../../lib/api/browser";
import { ApiError } from "../../lib/api/errors";
import { subscribeToStockAlert } from "../../lib/api/stock-alerts";
import { useLocale, useT } from "../../lib/use-locale";
import { currentUserAtom } from "../../state/user";

import { Stylesheet } from "../Stylesheet";
import css from "../../styles/stock-alerts.css?url";
import type { StockAlertProps } from "./StockAlert";

/**
 * The shop's phone input, with its numbering metadata, only once SMS is chosen. Imported here
 * rather than through LazyPhoneInput, which the account forms load first: sharing that small module
 * with this lazy form would split it into a chunk of its own on their first load.
 */
const PhoneInput = lazy(() => import("../PhoneInput").then((m) => ({ default: m.PhoneInput })));

type Step = "form" | "code" | "done";
type Field = "email" | "phone" | "code" | "channel" | "product" | "variant";

/**
 * The subscription form: email (prefilled for a signed-in shopper) or SMS. An SMS to a number
 * that is not the signed-in account's own asks for the code the backend texts it, then sends the
 * same request with the code. Field errors show under their fields; the outcome is announced.
 */
export function StockAlertForm({ productId, variantId, name, onClose }: StockAlertProps & { onClose: () => void }) {
  const t = useT();
  const locale = useLocale();
  const user = useAtomValue(currentUserAtom);
  const [channel, setChannel] = useState<StockAlertChannel>("email");
  const [email, setEmail] = useState(user?.email ?? "");
  const [phone, setPhone] = useState(user?.phone ?? "");
  const [code, setCode] = useState("");
  const [step, setStep] = useState<Step>("form");
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState("");
  const first = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);

  // Opening the panel puts the shopper in its first field; each later step moves focus to what it asks.
  useEffect(() => first.current?.focus(), []);
  useEffect(() => {
    if (step === "code") codeRef.current?.focus();
    if (step === "done") doneRef.current?.focus();
  }, [step]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    setProblem("");
    const body: StockAlertRequest =
      channel === "email"
        ? { product: productId, variant: variantId ?? null, channel, email }
        : { product: productId, variant: variantId ?? null, channel, phone, ...(step === "code" ? { code } : {}) };
    try {
      const answer = await subscribeToStockAlert(browserApi(locale), body);
      setStep(answer.data.status === "code_sent" ? "code" : "done");
    } catch (error) {
      if (error instanceof ApiError && error.status === 422 && Object.keys(error.errors).length) {
        setErrors(Object.fromEntries(Object.entries(error.errors).map(([field, list]) => [field, list[0]])));
      } else {
        setProblem(error instanceof ApiError && error.message ? error.message : t("error.generic"));
      }
    } finally {
      setBusy(false);
    }
  };

  if (step === "done")
    return (
      <div className="stock-alert__done">
        <Stylesheet href={css} />
        <p ref={doneRef} tabIndex={-1} role="status" className="notice notice--ok">
          {t("stockAlerts.done")}
        </p>
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t("stockAlerts.close")}
        </button>
      </div>
    );

  const described = (field: Field, hint?: string) =>
    [errors[field] ? `stock-alert-${field}-error` : null, hint ?? null].filter(Boolean).join(" ") || undefined;
  const errorOf = (field: Field) =>
    errors[field] ? (
      <p id={`stock-alert-${field}-error`} className="field__error">
        {errors[field]}
      </p>
    ) : null;
  const other = (["product", "variant", "channel"] as const).map((f) => errors[f]).find(Boolean);

  return (
    <form className="stock-alert__form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="stock-alert-title">
      <Stylesheet href={css} />
      <h2 id="stock-alert-title" className="stock-alert__title">
        {t("stockAlerts.title")}
      </h2>
      <p className="muted stock-alert__intro">{t("stockAlerts.intro", { name })}</p>
      <fieldset className="stock-alert__channels" disabled={step === "code"}>
        <legend>{t("stockAlerts.channel")}</legend>
        {(["email", "sms"] as const).map((c, i) => (
          <label key={c} className="stock-alert__channel">
            <input
              ref={i === 0 ? first : undefined}
              type="radio"
              name="channel"
              value={c}
              checked={channel === c}
              onChange={() => {
                setChannel(c);
                setErrors({});
              }}
            />
            {t(`stockAlerts.channels.${c}`)}
          </label>
        ))}
      </fieldset>
      {channel === "email" ? (
        <div className="field" data-invalid={errors.email ? "true" : undefined}>
          <label htmlFor="stock-alert-email">{t("stockAlerts.emailLabel")}</label>
          <input
            id="stock-alert-email"
            type="email"
            dir="ltr"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={errors.email ? true : undefined}
            aria-describedby={described("email")}
          />
          {errorOf("email")}
        </div>
      ) : (
        <div className="field" data-invalid={errors.phone ? "true" : undefined}>
          <label htmlFor="stock-alert-phone">{t("stockAlerts.phoneLabel")}</label>
          <Suspense fallback={<p className="muted">{t("stockAlerts.loading")}</p>}>
            <PhoneInput
              id="stock-alert-phone"
              value={phone}
              onChange={(value) => {
                setPhone(value);
                if (step === "code") setStep("form");
              }}
              defaultCountry="sa"
              invalid={Boolean(errors.phone)}
              autoComplete="tel"
              describedBy={described("phone", "stock-alert-phone-hint")}
            />
          </Suspense>
          <p id="stock-alert-phone-hint" className="muted stock-alert__hint">
            {t("stockAlerts.phoneHint")}
          </p>
          {errorOf("phone")}
        </div>
      )}
      {channel === "sms" && step === "code" ? (
        <div className="field" data-invalid={errors.code ? "true" : undefined}>
          <label htmlFor="stock-alert-code">{t("stockAlerts.codeLabel")}</label>
          <input
            ref={codeRef}
            id="stock-alert-code"
            dir="ltr"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            aria-invalid={errors.code ? true : undefined}
            aria-describedby={described("code", "stock-alert-code-hint")}
          />
          <p id="stock-alert-code-hint" className="muted stock-alert__hint">
            {t("stockAlerts.codeHint")}
          </p>
          {errorOf("code")}
        </div>
      ) : null}
      {problem || other ? (
        <p role="alert" className="field__error">
          {problem || other}
        </p>
      ) : null}
      <div className="stock-alert__actions">
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
          {busy ? t("stockAlerts.sending") : step === "code" ? t("stockAlerts.confirm") : t("stockAlerts.submit")}
        </button>
        <button type="button" className="button button--ghost" onClick={onClose}>
          {t("stockAlerts.cancel")}
        </button>
      </div>
    </form>
  );
}
