import { lazy, Suspense, useState } from "react";
import {
  redirect,
  redirectDocument,
  useRevalidator,
  useSearchParams,
  type ShouldRevalidateFunctionArgs,
} from "react-router";
import { Link } from "../lib/link";
import type { Route } from "./+types/proceed-payement";
import { browserApi } from "../lib/api/browser";
import { handleBrowserError } from "../lib/browser-errors";
import { confirmCod, confirmStcPay, sendStcPayMobile, startPayment } from "../lib/api/checkout";
import type { CodStep } from "../../contract/payments";
import { answer, intentOf, textOf, unknownIntent } from "../lib/actions";
import { PAYMENT_METHODS, type PaymentMethodId } from "../../contract/checkout";
import { ApiError } from "../lib/api/errors";
import { isLocale } from "../lib/locales";
import { pageMeta } from "../lib/seo";
import { useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import cartCss from "../styles/cart.css?url";

// Only an STC Pay payment or a cash-on-delivery order needs its form (and the form library): loaded when one does.
const StcPayForm = lazy(() => import("../components/checkout/StcPayForm").then((m) => ({ default: m.StcPayForm })));
const CodForm = lazy(() => import("../components/checkout/CodForm").then((m) => ({ default: m.CodForm })));

/** STC Pay's two steps, and cash on delivery's code (the forms' intents). */
const STEP_INTENTS = ["stcpay-mobile", "stcpay-otp", "cod-otp"] as const;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "proceedPayment", noindex: true });

type Phase =
  /** `refused`: the provider will not take this way of paying (pay-later pre-scoring): pay another way. */
  | { state: "failed"; message: string; refused?: boolean }
  | { state: "missing" }
  | { state: "stcpay"; paymentId: string; mobile: string | null; next: string }
  /** A cash-on-delivery order waiting for the code texted to its delivery phone. */
  | { state: "cod"; paymentId: string; message: string; next: string };

const methodOf = (value: string | null): PaymentMethodId | undefined =>
  (PAYMENT_METHODS as readonly string[]).includes(value ?? "") ? (value as PaymentMethodId) : undefined;

/**
 * Starts the payment of `?order=<number>` (by `?method=` when the shopper chose another way) and
 * hands the browser over to the provider's page, which returns to `payment-status`; STC Pay stays
 * here for its number and code. Client only: a guest's order is reached with the guest id in
 * session storage. On failure the visitor can try again (the loader runs again).
 */
export async function clientLoader({ params, request }: Route.ClientLoaderArgs): Promise<Phase> {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const query = new URL(request.url).searchParams;
  const number = query.get("order")?.trim() ?? "";
  if (!number) return { state: "missing" };
  let redirectUrl: string;
  try {
    const started = (
      await startPayment(browserApi(locale), number, `/${locale}/payment-status`, methodOf(query.get("method")))
    ).data;
    if (started.step === "stcpay")
      return {
        state: "stcpay",
        paymentId: started.payment_id,
        mobile: started.mobile ?? null,
        next: started.redirect_url,
      };
    if (started.step === "cod")
      return {
        state: "cod",
        paymentId: started.payment_id,
        message: (started as CodStep).message,
        // Confirmed, the order's own page: there is no payment to wait for.
        next: `/${locale}/order/checkout/status?order=${encodeURIComponent(number)}`,
      };
    redirectUrl = started.redirect_url;
  } catch (error) {
    // Refusals are said on the page; a 404 (no such order of this visitor's) goes through the
    // common handler like every other failure (spec §8: it redirects to /error).
    if (error instanceof ApiError && [400, 403, 409, 422].includes(error.status)) {
      return { state: "failed", message: error.message, refused: error.status === 422 && !!error.errors.method };
    }
    const handled = handleBrowserError(error, locale, (path) => {
      throw redirect(path);
    });
    return { state: "failed", message: handled.message };
  }
  // The provider's page is another document (another site, or the sandbox's page on the backend).
  throw redirectDocument(redirectUrl);
}
clientLoader.hydrate = true as const;

/** STC Pay's two steps: the wallet's number, then the code. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const form = await request.formData();
  const intent = intentOf(form, STEP_INTENTS);
  const api = browserApi(locale);
  const paymentId = textOf(form, "payment_id");
  switch (intent) {
    case "stcpay-mobile":
      return answer(locale, intent, () => sendStcPayMobile(api, paymentId, textOf(form, "mobile")));
    case "stcpay-otp":
      return answer(locale, intent, () => confirmStcPay(api, paymentId, textOf(form, "otp")));
    case "cod-otp":
      return answer(locale, intent, () => confirmCod(api, paymentId, textOf(form, "otp")));
    default:
      return unknownIntent(locale);
  }
}

/** A step of STC Pay must not start the payment again: only "Try again" runs the loader. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return formData ? false : defaultShouldRevalidate;
}

function PaymentCard({ number, children }: { number: string; children: React.ReactNode }) {
  const t = useT();
  return (
    <div className="container page payment-page">
      <Stylesheet href={cartCss} />
      <div className="payment-card card">
        <h1>{t("pages.proceedPayment.title")}</h1>
        {number ? (
          <p className="muted">
            {t("payment.order", { number: "" })}
            <bdi>{number}</bdi>
          </p>
        ) : null}
        {children}
      </div>
    </div>
  );
}

function Redirecting() {
  const t = useT();
  return (
    <div className="payment-card__progress" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <p>{t("payment.redirecting")}</p>
      <p className="muted">{t("payment.redirectingHint")}</p>
    </div>
  );
}

/** While the payment starts (the first time): the card says the provider's page is on its way. */
export function HydrateFallback() {
  const [params] = useSearchParams();
  return (
    <PaymentCard number={params.get("order")?.trim() ?? ""}>
      <Redirecting />
    </PaymentCard>
  );
}

export default function ProceedPayment({ loaderData: phase }: Route.ComponentProps) {
  const t = useT();
  const to = useLocalePath();
  const revalidator = useRevalidator();
  const [params] = useSearchParams();
  const number = params.get("order")?.trim() ?? "";
  // "Try again" runs the loader again; until it answers (or leaves for the provider) it is starting.
  const starting = revalidator.state === "loading";
  // STC Pay's refusal of the number, for the phase the loader answered (a new start clears it).
  const [refused, setRefused] = useState<{ phase: Phase; message: string } | null>(null);
  const refusal = refused?.phase === phase ? refused.message : null;
  const failure = phase.state === "failed" ? phase.message : refusal;
  // Refused by the method's provider (STC Pay's number, a pay-later provider's scoring): the card is the way on.
  const otherWay = refusal !== null || (phase.state === "failed" && phase.refused === true);
  const cardHref = `${to("/proceed-payement")}?order=${encodeURIComponent(number)}&method=card`;

  return (
    <PaymentCard number={number}>
      {starting ? <Redirecting /> : null}
      {phase.state === "stcpay" && !starting && refusal === null ? (
        <Suspense fallback={<Redirecting />}>
          <StcPayForm
            key={phase.paymentId}
            paymentId={phase.paymentId}
            mobile={phase.mobile}
            next={phase.next}
            onRefused={(message) => setRefused({ phase, message })}
          />
        </Suspense>
      ) : null}
      {phase.state === "cod" && !starting ? (
        <Suspense fallback={<Redirecting />}>
          <CodForm
            key={`${phase.paymentId}:${phase.message}`}
            paymentId={phase.paymentId}
            message={phase.message}
            next={phase.next}
            onResend={() => void revalidator.revalidate()}
          />
        </Suspense>
      ) : null}
      {failure !== null && !starting ? (
        <div className="notice notice--danger" role="alert">
          <p>
            <strong>
              {t(refusal !== null ? "payment.stcPay.refused" : otherWay ? "payment.refused" : "payment.startFailed")}
            </strong>
          </p>
          {failure && failure !== t("payment.startFailed") ? <p>{failure}</p> : null}
          <div className="payment-card__actions">
            <button type="button" className="button button--primary" onClick={() => void revalidator.revalidate()}>
              {t("payment.retry")}
            </button>
            {otherWay ? (
              <Link className="button" to={cardHref}>
                {t("payment.payByCard")}
              </Link>
            ) : null}
            <Link className="button" to={`${to("/order/checkout/status")}?order=${encodeURIComponent(number)}`}>
              {t("payment.viewOrder")}
            </Link>
          </div>
        </div>
      ) : null}
      {phase.state === "missing" ? (
        <div className="notice" role="status">
          <p>{t("payment.missingOrder")}</p>
          <Link to={to("/")}>{t("payment.continueShopping")}</Link>
        </div>
      ) : null}
    </PaymentCard>
  );
}
