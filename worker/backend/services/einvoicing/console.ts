import type { Env } from "../../env";
import {
  EINVOICE_STATUSES,
  type ComplianceSample,
  type EInvoiceListItem,
  type EInvoiceMessage,
  type EInvoiceOverview,
  type EInvoiceRegistration,
  type EInvoiceStatus,
} from "../../../../contract/einvoicing";
import { loadUnit } from "./chain";
import { environmentOf } from "./onboarding";
import { overdueCount } from "./reporting";

/** The console's page: the unit, the certificate's days left, the counts, and the latest documents. */

export const DOCUMENTS_SHOWN = 100;

export async function einvoiceOverview(env: Env, filter: { status?: EInvoiceStatus } = {}): Promise<EInvoiceOverview> {
  const db = env.DB;
  const [unit, counts, list, overdue] = await Promise.all([
    loadUnit(db),
    db
      .prepare("SELECT status, COUNT(*) AS n FROM einvoices GROUP BY status")
      .all<{ status: EInvoiceStatus; n: number }>(),
    db
      .prepare(
        `SELECT e.id, d.number, d.kind, o.number AS order_number, e.transaction_type, e.icv, e.status, e.attempts,
           e.created_at, e.answered_at, e.messages
         FROM einvoices e JOIN tax_documents d ON d.id = e.document_id JOIN orders o ON o.id = d.order_id
         WHERE ?1 IS NULL OR e.status = ?1
         ORDER BY e.icv DESC LIMIT ?2`,
      )
      .bind(filter.status ?? null, DOCUMENTS_SHOWN)
      .all<
        Omit<EInvoiceListItem, "messages" | "transaction"> & {
          transaction_type: "simplified" | "standard";
          messages: string | null;
        }
      >(),
    overdueCount(db),
  ]);
  const expires = unit?.certificate_expires_at ?? null;
  return {
    environment: environmentOf(env),
    status: unit?.status ?? "unregistered",
    registration: unit ? (JSON.parse(unit.registration) as EInvoiceRegistration) : null,
    serial: unit?.serial ?? null,
    compliance_passed: unit ? (JSON.parse(unit.compliance_passed) as ComplianceSample[]) : [],
    certificate_expires_at: expires,
    certificate_days_left: expires ? Math.floor((Date.parse(expires) - Date.now()) / 86_400_000) : null,
    counts: Object.fromEntries(
      EINVOICE_STATUSES.map((s) => [s, counts.results.find((c) => c.status === s)?.n ?? 0]),
    ) as Record<EInvoiceStatus, number>,
    overdue,
    documents: list.results.map(({ transaction_type, messages, ...row }) => ({
      ...row,
      transaction: transaction_type,
      messages: messages ? (JSON.parse(messages) as EInvoiceMessage[]) : [],
    })),
  };
}
