import { useMemo, useRef, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import type { OrderAccessGrant } from "../../contract/order-access";
import { Link } from "../lib/link";
import type { Route } from "./+types/track-order";
import { OrderDetails } from "../components/OrderDetails";
import { browserApi } from "../lib/api/browser";
import { handleBrowserError } from "../lib/browser-errors";
import { useChallenge } from "../lib/challenge";
import { ChallengeSlot } from "../components/challenge/ChallengeSlot";
import { ApiError } from "../lib/api/errors";
import { trackOrder } from "../lib/api/orders";
import { formRules } from "../lib/forms";
import type { Order } from "../lib/orders";
import { pageMeta } from "../lib/seo";
import { keepOrderGrant } from "../lib/order-grants";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import cartCss from "../styles/cart.css?url";

/** What a phone number looks like as typed (Arabic-Indic digits included). */
const PHONE_LIKE = /^\+?[\d\s\u0660-\u0669\u06F0-\u06F9-]{6,20}$/;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "trackOrder", noindex: true });

type Result =
  { state: "idle" } | { state: "found"; order: Order } | { state: "notFound" } | { state: "error"; message: string };

/** Whether a tracking answer's `meta.access` is a grant (a guest's order). */
function grantOf(meta: Record<string, unknown> | undefined): OrderAccessGrant | null {
  const access = meta?.access as Partial<OrderAccessGrant> | undefined;
  return typeof access?.access === "string" && typeof access.expires_at === "string"
    ? { access: access.access, expires_at: access.expires_at }
    : null;
}

/**
 * Finds an order by its number and the email or phone given at checkout (POST /orders/track).
 * For a guest's order the answer carries a grant for it, kept in the tab, so the link to the
 * order's page opens its invoice, cancel and returns there; an account's order's page asks its
 * owner to sign in and comes back.
 */
export default function TrackOrder() {
  const t = useT();
  const to = useLocalePath();
  const locale = useLocale();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const rules = useMemo(() => formRules(t), [t]);
  /** Tracking takes the order's email or phone: an email by its form, a phone by its digits. */
  const emailOrPhone = (value: string) =>
    value.includes("@") ? rules.email()(value) : PHONE_LIKE.test(value.trim()) ? "" : rules.messages.fallback;
  const [number, setNumber] = useState(params.get("order") ?? "");
  const [contact, setContact] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result>({ state: "idle" });

  const numberError = serverErrors.number || (submitted && !number.trim() ? t("track.numberRequired") : "");
  // The email rule answers a promise until valibot has loaded (lib/forms.ts): nothing to show yet.
  const contactRule = submitted && contact.trim() ? emailOrPhone(contact) : "";
  const contactError =
    serverErrors.contact ||
    (submitted && !contact.trim() ? t("track.contactRequired") : typeof contactRule === "string" ? contactRule : "");

  // A busy network's person check: the widget, and its token on the retried lookup.
  const challenge = useChallenge();
  const formRef = useRef<HTMLFormElement>(null);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    setServerErrors({});
    if (!number.trim() || !contact.trim() || (await emailOrPhone(contact))) return;
    setBusy(true);
    try {
      const res = await trackOrder(browserApi(locale), number.trim(), contact.trim(), challenge.take());
      challenge.clear();
      const grant = grantOf(res.meta);
      if (grant) keepOrderGrant(res.data.number, grant);
      setResult({ state: "found", order: res.data });
    } catch (error) {
      if (challenge.offer(error)) setResult({ state: "error", message: (error as ApiError).message });
      // No order matches the pair: a 422 on the form as a whole (field `order`), said on the page.
      else if (error instanceof ApiError && error.status === 422 && error.errors.order) {
        challenge.clear();
        setResult({ state: "notFound" });
      } else if (error instanceof ApiError && error.status === 422) {
        setServerErrors(Object.fromEntries(error.fieldErrors.map((fe) => [fe.type, fe.message])));
        setResult({ state: "idle" });
      }
      // Anything else (too many lookups too: spec §8's "other status") goes through the common handler.
      else setResult({ state: "error", message: handleBrowserError(error, locale, (p) => navigate(p)).message });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="container page track-page">
      <Stylesheet href={cartCss} />
      <h1>{t("pages.trackOrder.title")}</h1>
      <p className="muted">{t("track.intro")}</p>
      <form ref={formRef} className="track-form card" onSubmit={(e) => void submit(e)} noValidate>
        <div className="field" data-invalid={numberError ? "true" : undefined}>
          <label htmlFor="track-number">{t("track.number")}</label>
          <input
            id="track-number"
            name="number"
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            dir="ltr"
            autoComplete="off"
            spellCheck={false}
            aria-required="true"
            aria-invalid={numberError ? true : undefined}
            aria-describedby={numberError ? "track-number-error" : undefined}
          />
          {numberError ? (
            <p id="track-number-error" className="field__error">
              {numberError}
            </p>
          ) : null}
        </div>
        <div className="field" data-invalid={contactError ? "true" : undefined}>
          <label htmlFor="track-contact">{t("track.contact")}</label>
          <input
            id="track-contact"
            name="contact"
            value={contact}
            onChange={(e) => setContact(e.target.value)}
            dir="ltr"
            autoComplete="email"
            aria-required="true"
            aria-invalid={contactError ? true : undefined}
            aria-describedby={contactError ? "track-contact-error" : undefined}
          />
          {contactError ? (
            <p id="track-contact-error" className="field__error">
              {contactError}
            </p>
          ) : null}
        </div>
        <ChallengeSlot
          state={challenge}
          onToken={(token) => {
            challenge.solved(token);
            formRef.current?.requestSubmit();
          }}
        />
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
          {busy ? t("track.searching") : t("track.submit")}
        </button>
      </form>
      <div className="track-result" aria-live="polite">
        {result.state === "notFound" ? (
          <div className="notice notice--danger" role="alert">
            <p>{t("track.notFound")}</p>
          </div>
        ) : null}
        {result.state === "error" ? (
          <div className="notice notice--danger" role="alert">
            <p>{result.message}</p>
          </div>
        ) : null}
        {result.state === "found" ? (
          <OrderDetails order={result.order}>
            <div className="track-manage">
              <p className="muted">{t("orderLink.manageHint")}</p>
              <p>
                <Link
                  className="button button--primary"
                  to={`${to("/order/checkout/status")}?order=${encodeURIComponent(result.order.number)}`}
                >
                  {t("orderLink.manage")}
                </Link>
              </p>
            </div>
          </OrderDetails>
        ) : null}
      </div>
    </div>
  );
}
