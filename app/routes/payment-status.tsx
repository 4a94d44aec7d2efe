import { useEffect, useRef } from "react";
import { useRevalidator, useSearchParams } from "react-router";
import { Link } from "../lib/link";
import type { Route } from "./+types/payment-status";
import { readOwned, type Owned } from "../lib/owned";
import { getPaymentStatus } from "../lib/api/checkout";
import { useCart } from "../lib/cart";
import type { PaymentStatusView as Status } from "../../contract/payments";
import { pageMeta } from "../lib/seo";
import { isLocale } from "../lib/locales";
import { useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import cartCss from "../styles/cart.css?url";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "paymentStatus", noindex: true });

/** While the provider has not answered, the status is read again this often, this many times. */
const POLL_MS = 1500;
const POLL_TRIES = 12;

/**
 * Where the provider returns (`?payment_id=...&order=<number>`). Client only: a guest's payment
 * is read with the guest id in session storage. Read again by revalidation while it is pending.
 */
export async function clientLoader({ params, request }: Route.ClientLoaderArgs): Promise<Owned<Status>> {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const query = new URL(request.url).searchParams;
  const paymentId = query.get("payment_id")?.trim() ?? "";
  if (!paymentId) return { state: "missing" };
  return readOwned(locale, request.signal, (api) => getPaymentStatus(api, paymentId, request.signal, query));
}
clientLoader.hydrate = true as const;

function Checking() {
  const t = useT();
  return (
    <div className="payment-card__progress" role="status">
      <span className="spinner" aria-hidden="true" />
      <p>{t("payment.checking")}</p>
    </div>
  );
}

export function HydrateFallback() {
  const t = useT();
  return (
    <div className="container page payment-page">
      <Stylesheet href={cartCss} />
      <div className="payment-card card" data-status="checking">
        <h1>{t("pages.paymentStatus.title")}</h1>
        <Checking />
      </div>
    </div>
  );
}

/** Paid, failed (with a retry), or still pending (read again briefly, then on request). A paid order clears the cart state. */
export default function PaymentStatus({ loaderData: view }: Route.ComponentProps) {
  const t = useT();
  const to = useLocalePath();
  const cart = useCart();
  const revalidator = useRevalidator();
  const [params] = useSearchParams();
  const orderParam = params.get("order")?.trim() ?? "";
  /** Reads of a pending payment so far; "Check again" starts the count afresh. */
  const reads = useRef(0);
  const cleared = useRef(false);
  const status = view.state === "found" ? view.data : null;
  const number = status?.order_number || orderParam;
  const checking = revalidator.state === "loading" && view.state === "error";
  const checkAgain = () => {
    reads.current = 0;
    void revalidator.revalidate();
  };

  // Still pending: read again a little later, a few times (each answer is a new loaderData).
  useEffect(() => {
    if (status?.status !== "pending" || reads.current + 1 >= POLL_TRIES) return;
    const timer = setTimeout(() => {
      reads.current += 1;
      void revalidator.revalidate();
    }, POLL_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per answer, not per revalidator state
  }, [view]);

  // Paid: the order holds what the cart held, so the cart starts afresh.
  useEffect(() => {
    if (status?.status === "paid" && !cleared.current) {
      cleared.current = true;
      cart.clearCartState();
      void cart.loadCart();
    }
  }, [status?.status, cart]);

  const orderLink = number ? `${to("/order/checkout/status")}?order=${encodeURIComponent(number)}` : to("/");
  const retryLink = `${to("/proceed-payement")}?order=${encodeURIComponent(number)}`;

  return (
    <div className="container page payment-page">
      <Stylesheet href={cartCss} />
      <div className="payment-card card" data-status={checking ? "checking" : (status?.status ?? view.state)}>
        <h1>{t("pages.paymentStatus.title")}</h1>
        {number ? (
          <p className="muted">
            {t("payment.order", { number: "" })}
            <bdi>{number}</bdi>
          </p>
        ) : null}
        {checking ? <Checking /> : null}
        {status?.status === "paid" ? (
          <div className="payment-result payment-result--paid" role="status">
            <svg aria-hidden="true" viewBox="0 0 24 24" width="56" height="56">
              <circle cx="12" cy="12" r="11" fill="currentColor" opacity=".15" />
              <path
                d="M7 12.5l3.2 3.2L17 9"
                fill="none"
                stroke="currentColor"
                strokeWidth="2.2"
                strokeLinecap="round"
                strokeLinejoin="round"
              />
            </svg>
            <h2>{t("payment.paid")}</h2>
            <p>{t("payment.paidText")}</p>
            <div className="payment-card__actions">
              <Link className="button button--primary" to={orderLink}>
                {t("payment.viewOrder")}
              </Link>
              <Link className="button" to={to("/products")}>
                {t("payment.continueShopping")}
              </Link>
            </div>
          </div>
        ) : null}
        {status?.status === "failed" ? (
          <div className="payment-result payment-result--failed" role="alert">
            <svg aria-hidden="true" viewBox="0 0 24 24" width="56" height="56">
              <circle cx="12" cy="12" r="11" fill="currentColor" opacity=".15" />
              <path d="M8 8l8 8M16 8l-8 8" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
            </svg>
            <h2>{t("payment.failed")}</h2>
            <p>{t("payment.failedText")}</p>
            {status.message ? <p className="muted">{status.message}</p> : null}
            <div className="payment-card__actions">
              <Link className="button button--primary" to={retryLink}>
                {t("payment.retryPayment")}
              </Link>
              {/* A way of paying that failed (a pay-later provider's no) may fail again: the card is offered. */}
              {status.method && status.method !== "card" ? (
                <Link className="button" to={`${retryLink}&method=card`}>
                  {t("payment.payByCard")}
                </Link>
              ) : null}
              <Link className="button" to={orderLink}>
                {t("payment.viewOrder")}
              </Link>
            </div>
          </div>
        ) : null}
        {status?.status === "pending" ? (
          <div className="payment-result" role="status">
            <span className="spinner" aria-hidden="true" />
            <h2>{t("payment.pending")}</h2>
            <p>{t("payment.pendingText")}</p>
            <div className="payment-card__actions">
              <button type="button" className="button" onClick={checkAgain}>
                {t("payment.checkAgain")}
              </button>
              <Link className="button" to={orderLink}>
                {t("payment.viewOrder")}
              </Link>
            </div>
          </div>
        ) : null}
        {view.state === "missing" ? (
          <div className="notice" role="status">
            <p>{t("payment.missingPayment")}</p>
            {number ? (
              <Link to={orderLink}>{t("payment.viewOrder")}</Link>
            ) : (
              <Link to={to("/")}>{t("payment.continueShopping")}</Link>
            )}
          </div>
        ) : null}
        {view.state === "error" && !checking ? (
          <div className="notice notice--danger" role="alert">
            <p>{view.message}</p>
            <button type="button" className="button" onClick={checkAgain}>
              {t("payment.checkAgain")}
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
