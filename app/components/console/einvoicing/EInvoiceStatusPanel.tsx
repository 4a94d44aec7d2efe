import type { EInvoiceOverview } from "../../../../contract/einvoicing";
import { consoleFormat } from "../../../lib/console-format";
import { countOf } from "../../../lib/plural";
import { useLocale, useT } from "../../../lib/use-locale";
import { complianceDone, STEPS } from "./steps";

/** From this many days left the console warns that the production certificate needs renewing. */
const RENEW_WARNING_DAYS = 30;

/**
 * Where the unit stands: the ZATCA environment, the onboarding steps (done, current, to come), the
 * EGS serial and the certificate, with an alert for simplified documents running out of ZATCA's
 * 24 hours and a warning when the certificate is close to expiring.
 */
export function EInvoiceStatusPanel({ overview }: { overview: EInvoiceOverview }) {
  const t = useT();
  const locale = useLocale();
  const f = consoleFormat(locale);
  const done = {
    register: overview.status !== "unregistered",
    compliance: complianceDone(overview),
    production: overview.status === "production",
  };
  const current = STEPS.find((s) => !done[s]);
  const daysLeft = overview.certificate_days_left;
  return (
    <>
      {overview.overdue > 0 ? (
        <section className="console-panel console-alert" role="alert" aria-labelledby="einv-overdue" data-overdue>
          <h2 id="einv-overdue">{t("console.einvoicing.overdueTitle")}</h2>
          <p>{countOf(t, locale, "console.einvoicing.overdue", overview.overdue)}</p>
        </section>
      ) : null}
      <section className="console-panel" aria-labelledby="einv-status" data-einvoice-status={overview.status}>
        <h2 id="einv-status">{t("console.einvoicing.status")}</h2>
        <ol className="einv-steps" aria-label={t("console.einvoicing.steps.label")}>
          {STEPS.map((step, i) => {
            const state = done[step] ? "done" : step === current ? "current" : "todo";
            return (
              <li
                key={step}
                data-step={step}
                data-state={state}
                aria-current={state === "current" ? "step" : undefined}
              >
                <span className="einv-steps__mark" aria-hidden="true">
                  {state === "done" ? "✓" : f.number(i + 1)}
                </span>
                <span>
                  {t(`console.einvoicing.steps.${step}`)}
                  <span className="visually-hidden"> ({t(`console.einvoicing.steps.${state}`)})</span>
                </span>
              </li>
            );
          })}
        </ol>
        <dl className="console-facts">
          <div>
            <dt>{t("console.einvoicing.environment")}</dt>
            <dd data-environment={overview.environment}>
              {t(`console.einvoicing.environments.${overview.environment}`)}
            </dd>
          </div>
          <div>
            <dt>{t("console.einvoicing.unitStatus")}</dt>
            <dd>{t(`console.einvoicing.unitStatuses.${overview.status}`)}</dd>
          </div>
          <div>
            <dt>{t("console.einvoicing.serial")}</dt>
            <dd>{overview.serial ? <bdi dir="ltr">{overview.serial}</bdi> : "—"}</dd>
          </div>
          <div>
            <dt>{t("console.einvoicing.certificate")}</dt>
            <dd data-certificate-days={daysLeft ?? undefined}>
              {overview.certificate_expires_at ? f.day(overview.certificate_expires_at) : "—"}
              {daysLeft !== null && daysLeft > 0 ? (
                <span className="einv-days"> ({countOf(t, locale, "console.einvoicing.daysLeft", daysLeft)})</span>
              ) : null}
            </dd>
          </div>
        </dl>
        {daysLeft !== null && daysLeft <= RENEW_WARNING_DAYS ? (
          <p className="notice notice--warn einv-notice" data-certificate-warning>
            {daysLeft > 0
              ? t("console.einvoicing.certificateWarning", {
                  days: countOf(t, locale, "console.einvoicing.daysLeft", daysLeft),
                })
              : t("console.einvoicing.certificateExpired")}
          </p>
        ) : null}
      </section>
    </>
  );
}
