import { useState } from "react";
import {
  EINVOICE_STATUSES,
  type EInvoiceListItem,
  type EInvoiceOverview,
  type EInvoiceStatus,
} from "../../../../contract/einvoicing";
import { einvoiceXmlHref } from "../../../lib/api/console-einvoicing";
import { consoleFormat } from "../../../lib/console-format";
import { Link } from "../../../lib/link";
import { countOf } from "../../../lib/plural";
import { useLocale, useLocalePath, useT } from "../../../lib/use-locale";
import { DataTable, type Column } from "../DataTable";
import { useRouteAction } from "../../form/useRouteAction";

const TONE: Record<EInvoiceStatus, "ok" | "warn" | "danger" | null> = {
  pending: null,
  reported: "ok",
  reported_with_warnings: "warn",
  cleared: "ok",
  cleared_with_warnings: "warn",
  rejected: "danger",
  superseded: null,
};

function StatusBadge({ status }: { status: EInvoiceStatus }) {
  const t = useT();
  const tone = TONE[status];
  return (
    <span className={`console-badge${tone ? ` console-badge--${tone}` : ""}`} data-status={status}>
      {t(`console.einvoicing.statuses.${status}`)}
    </span>
  );
}

/** ZATCA's errors and warnings on a document, behind a disclosure: codes and messages as ZATCA wrote them. */
function Messages({ doc }: { doc: EInvoiceListItem }) {
  const t = useT();
  const locale = useLocale();
  if (doc.messages.length === 0) return "—";
  return (
    <details className="einv-messages" data-messages>
      <summary>{countOf(t, locale, "console.einvoicing.documents.messageCount", doc.messages.length)}</summary>
      <ul>
        {doc.messages.map((m, i) => (
          <li key={`${m.code}-${i}`} data-type={m.type}>
            <span className={`console-badge console-badge--${m.type === "error" ? "danger" : "warn"}`}>
              {t(`console.einvoicing.messageTypes.${m.type}`)}
            </span>{" "}
            <code dir="ltr">{m.code}</code> <bdi>{m.message}</bdi>
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * The signed documents and ZATCA's answers, newest first: the counts by status, then one row each
 * with its messages, its XML, and for a rejected one a button to send it again once staff fixed
 * the cause (the rejected copy stays in the chain; a new one follows it).
 */
export function EInvoiceDocuments({ overview, status }: { overview: EInvoiceOverview; status: EInvoiceStatus | null }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const f = consoleFormat(locale);
  const resending = useRouteAction();
  const [resendingId, setResendingId] = useState<number | null>(null);

  const resend = (doc: EInvoiceListItem) => {
    setResendingId(doc.id);
    void resending.submit(
      "resend",
      { id: doc.id },
      {
        loading: t("console.einvoicing.working"),
        success: () => t("console.einvoicing.documents.resent", { number: doc.number }),
        toastRefusal: true,
      },
    );
  };

  const columns: Column<EInvoiceListItem>[] = [
    {
      label: t("console.einvoicing.documents.number"),
      cell: (d) => (
        <bdi dir="ltr" className="console-nowrap">
          {d.number}
        </bdi>
      ),
    },
    // Kind and transaction in ZATCA's own words ("Simplified credit note"): one column, not two.
    {
      label: t("console.einvoicing.documents.kind"),
      cell: (d) => (
        <span data-kind={d.kind} data-transaction={d.transaction}>
          {t(`console.einvoicing.samples.${d.transaction}_${d.kind}`)}
        </span>
      ),
    },
    {
      label: t("console.einvoicing.documents.order"),
      cell: (d) => (
        <Link to={to(`/admin/orders/${encodeURIComponent(d.order_number)}`)} className="console-nowrap">
          <bdi dir="ltr">{d.order_number}</bdi>
        </Link>
      ),
    },
    { label: t("console.einvoicing.documents.icv"), numeric: true, cell: (d) => f.number(d.icv) },
    { label: t("console.einvoicing.documents.status"), cell: (d) => <StatusBadge status={d.status} /> },
    { label: t("console.einvoicing.documents.attempts"), numeric: true, cell: (d) => f.number(d.attempts) },
    {
      label: t("console.einvoicing.documents.created"),
      cell: (d) => f.moment(d.created_at),
    },
    {
      label: t("console.einvoicing.documents.answered"),
      cell: (d) => (d.answered_at ? f.moment(d.answered_at) : t("console.einvoicing.documents.notAnswered")),
    },
    { label: t("console.einvoicing.documents.messages"), cell: (d) => <Messages doc={d} /> },
    {
      label: t("console.table.actions"),
      cell: (d) => (
        <div className="einv-row-actions">
          <a
            className="button button--ghost"
            href={einvoiceXmlHref(locale, d.id)}
            target="_blank"
            rel="noopener"
            aria-label={t("console.einvoicing.documents.xmlOf", { number: d.number })}
          >
            {t("console.einvoicing.documents.xml")}
          </a>
          {d.status === "rejected" ? (
            <button
              type="button"
              className="button"
              onClick={() => resend(d)}
              disabled={resending.busy && resendingId === d.id}
              aria-label={t("console.einvoicing.documents.resendOf", { number: d.number })}
            >
              {t("console.einvoicing.documents.resend")}
            </button>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <section className="console-panel einv-documents" aria-labelledby="einv-documents" data-einvoice-documents>
      <h2 id="einv-documents">{t("console.einvoicing.documents.title")}</h2>
      <p className="console-hint">{t("console.einvoicing.documents.intro")}</p>
      {/* Each count filters the table to its documents; the chosen one leads back to all of them. */}
      <ul className="console-stats einv-counts" aria-label={t("console.einvoicing.documents.counts")}>
        {EINVOICE_STATUSES.map((s) => (
          <li key={s} className="console-stat" data-count={s}>
            <div className="console-stat__label">
              <Link
                to={s === status ? to("/admin/einvoicing") : to(`/admin/einvoicing?status=${s}`)}
                aria-current={s === status ? "true" : undefined}
                preventScrollReset
              >
                {t(`console.einvoicing.statuses.${s}`)}
              </Link>
            </div>
            <div className="console-stat__value">{f.number(overview.counts[s] ?? 0)}</div>
          </li>
        ))}
      </ul>
      {status ? (
        <p>
          {t("console.einvoicing.documents.filtered", { status: t(`console.einvoicing.statuses.${status}`) })}{" "}
          <Link to={to("/admin/einvoicing")} preventScrollReset>
            {t("console.einvoicing.documents.showAll")}
          </Link>
        </p>
      ) : null}
      <DataTable
        caption={t("console.einvoicing.documents.title")}
        labelledBy="einv-documents"
        columns={columns}
        rows={overview.documents}
        rowKey={(d) => d.id}
        empty={t(status ? "console.einvoicing.documents.noneOfStatus" : "console.einvoicing.documents.none")}
      />
    </section>
  );
}
