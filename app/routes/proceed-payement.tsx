import { redirect, redirectDocument, useRevalidator, useSearchParams } from "react-router";
import { Link } from "../lib/link";
import type { Route } from "./+types/proceed-payement";
import { browserApi } from "../lib/api/browser";
import { handleBrowserError } from "../lib/browser-errors";
import { startPayment } from "../lib/api/checkout";
import { ApiError } from "../lib/api/errors";
import { isLocale } from "../lib/locales";
import { pageMeta } from "../lib/seo";
import { useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import cartCss from "../styles/cart.css?url";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "proceedPayment", noindex: true });

type Phase = { state: "failed"; message: string } | { state: "missing" };

/**
 * Starts the payment of `?order=<number>` and hands the browser over to the provider's page,
 * which returns to `payment-status`. Client only: a guest's order is reached with the guest id in
 * session storage. On failure the visitor can try again (the loader runs again).
 */
export async function clientLoader({ params, request }: Route.ClientLoaderArgs): Promise<Phase> {
  const locale = isLocale(params.locale) ? params.locale : "en";
  const number = new URL(request.url).searchParams.get("order")?.trim() ?? "";
  if (!number) return { state: "missing" };
  let redirectUrl: string;
  try {
    redirectUrl = (await startPayment(browserApi(locale), number, `/${locale}/payment-status`)).data.redirect_url;
  } catch (error) {
    // Refusals are said on the page; a 404 (no such order of this visitor's) goes through the
    // common handler like every other failure (spec §8: it redirects to /error).
    if (error instanceof ApiError && [400, 403, 409, 422].includes(error.status)) {
      return { state: "failed", message: error.message };
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

  return (
    <PaymentCard number={number}>
      {starting ? <Redirecting /> : null}
      {phase.state === "failed" && !starting ? (
        <div className="notice notice--danger" role="alert">
          <p>
            <strong>{t("payment.startFailed")}</strong>
          </p>
          {phase.message && phase.message !== t("payment.startFailed") ? <p>{phase.message}</p> : null}
          <div className="payment-card__actions">
            <button type="button" className="button button--primary" onClick={() => void revalidator.revalidate()}>
              {t("payment.retry")}
            </button>
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
