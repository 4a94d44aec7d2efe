import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import type { Route } from "./+types/proceed-payement";
import { browserApi, handleBrowserError } from "../lib/api/browser";
import { startPayment } from "../lib/api/checkout";
import { ApiError } from "../lib/api/errors";
import { pageMeta } from "../lib/seo";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import "../styles/cart.css";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "proceedPayment", noindex: true });

type Phase =
  { state: "starting" } | { state: "redirecting" } | { state: "failed"; message: string } | { state: "missing" };

/**
 * Starts the payment of `?order=<number>` and hands the browser over to the provider's page,
 * which returns to `payment-status`. On failure the visitor can try again.
 */
export default function ProceedPayment() {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const number = params.get("order")?.trim() ?? "";
  const [phase, setPhase] = useState<Phase>({ state: "starting" });
  const started = useRef(false);

  const start = useCallback(async () => {
    if (!number) return setPhase({ state: "missing" });
    setPhase({ state: "starting" });
    try {
      const res = await startPayment(browserApi(locale), number, `/${locale}/payment-status`);
      setPhase({ state: "redirecting" });
      window.location.assign(res.data.redirect_url);
    } catch (error) {
      const message =
        error instanceof ApiError && [400, 403, 404, 409, 422].includes(error.status)
          ? error.message || t("payment.startFailed")
          : handleBrowserError(error, locale, (p) => navigate(p)).message;
      setPhase({ state: "failed", message });
    }
  }, [number, locale, navigate, t]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void start();
  }, [start]);

  return (
    <div className="container page payment-page">
      <div className="payment-card card">
        <h1>{t("pages.proceedPayment.title")}</h1>
        {number ? (
          <p className="muted">
            {t("payment.order", { number: "" })}
            <bdi>{number}</bdi>
          </p>
        ) : null}
        {phase.state === "starting" || phase.state === "redirecting" ? (
          <div className="payment-card__progress" role="status" aria-live="polite">
            <span className="spinner" aria-hidden="true" />
            <p>{t("payment.redirecting")}</p>
            <p className="muted">{t("payment.redirectingHint")}</p>
          </div>
        ) : null}
        {phase.state === "failed" ? (
          <div className="notice notice--danger" role="alert">
            <p>
              <strong>{t("payment.startFailed")}</strong>
            </p>
            {phase.message && phase.message !== t("payment.startFailed") ? <p>{phase.message}</p> : null}
            <div className="payment-card__actions">
              <button type="button" className="button button--primary" onClick={() => void start()}>
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
      </div>
    </div>
  );
}
