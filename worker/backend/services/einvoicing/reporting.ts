import type { Env } from "../../env";
import type { EInvoiceMessage, EInvoiceStatus } from "../../../../contract/einvoicing";
import { currentEInvoice, type EInvoiceRow } from "../orders/invoices";
import { loadUnit, stampWaiting } from "./chain";
import { openText } from "./secrets";
import { zatcaFromEnv, type SubmissionResult, type ZatcaCredentials } from "./zatca-api";

/**
 * Reporting and clearance. A simplified document is reported to ZATCA within minutes of its stamp
 * (the queue carries it; the cron picks up anything the queue missed and every retry that falls
 * due), retried with a growing delay, and an alert is raised at 12 hours, long before ZATCA's 24. A
 * standard document is cleared the same way, and the shopper receives it only once cleared.
 * ZATCA's answer is kept per document; a rejected one stays in the chain until staff correct the
 * cause and send it again (resend), which stamps a new copy after the head.
 */

/** The retry delay after `attempts` failures: 1, 2, 4 … minutes, capped at an hour. */
export const retryDelayMs = (attempts: number) => Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

/** A simplified document still unreported this long raises the alert. */
export const OVERDUE_MS = 12 * 3_600_000;

/**
 * The adapter for this deployment. The stand-in's judge (the business rules, the stamp's checks)
 * loads only when the stand-in judges a document: a shop talking to ZATCA never parses it.
 */
export const zatcaOf = (env: Env) =>
  zatcaFromEnv(env, { check: async (xml) => (await import("./verify")).checkDocument(xml) });

export async function productionCredentials(env: Env): Promise<ZatcaCredentials | null> {
  const unit = await loadUnit(env.DB);
  if (!unit?.production_token || !unit.production_secret) return null;
  return { binary_security_token: unit.production_token, secret: await openText(env, unit.production_secret) };
}

const asMessages = (result: SubmissionResult): EInvoiceMessage[] => [
  ...result.errors.map((m) => ({ type: "error" as const, ...m })),
  ...result.warnings.map((m) => ({ type: "warning" as const, ...m })),
];

/** Sends one stamped copy; true when ZATCA answered for good (accepted, duplicate or rejected). */
export async function submitEInvoice(env: Env, id: number): Promise<boolean> {
  const db = env.DB;
  const row = await db.prepare("SELECT * FROM einvoices WHERE id = ?").bind(id).first<EInvoiceRow>();
  if (!row || row.status !== "pending") return true;
  const api = zatcaOf(env);
  const credentials = await productionCredentials(env);
  const document = { uuid: row.uuid, invoice_hash: row.hash, xml: row.xml };
  let result: SubmissionResult;
  if (!api || !credentials) {
    result = { outcome: "retry", status: 0, zatca_status: null, info: [], warnings: [], errors: [] };
  } else if (row.transaction_type === "standard") {
    result = await api.clear(credentials, document);
    // Clearance switched off by ZATCA: the standard document is reported instead.
    if (result.outcome === "clearance_off") result = await api.report(credentials, document);
  } else {
    result = await api.report(credentials, document);
  }
  const now = new Date().toISOString();
  const answered = (status: EInvoiceStatus) =>
    db
      .prepare(
        "UPDATE einvoices SET status = ?, messages = ?, cleared_xml = ?, answered_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ? AND status = 'pending'",
      )
      .bind(status, JSON.stringify(asMessages(result)), result.cleared_xml ?? null, now, id)
      .run();
  const standard = row.transaction_type === "standard";
  switch (result.outcome) {
    case "accepted":
    case "duplicate":
      await answered(standard ? "cleared" : "reported");
      return true;
    case "accepted_with_warnings":
      await answered(standard ? "cleared_with_warnings" : "reported_with_warnings");
      return true;
    case "rejected":
      await answered("rejected");
      console.error(
        JSON.stringify({ level: "error", event: "einvoice.rejected", id, codes: result.errors.map((e) => e.code) }),
      );
      return true;
    default: {
      const attempts = row.attempts + 1;
      await db
        .prepare(
          "UPDATE einvoices SET attempts = ?, next_attempt_at = ?, last_error = ? WHERE id = ? AND status = 'pending'",
        )
        .bind(
          attempts,
          new Date(Date.now() + retryDelayMs(attempts)).toISOString(),
          `${result.outcome} ${result.status}`,
          id,
        )
        .run();
      console.warn(JSON.stringify({ level: "warn", event: "einvoice.retry", id, attempts, status: result.status }));
      return false;
    }
  }
}

/** Puts stamped copies on the queue; the cron sends whatever the queue could not take. */
export async function enqueueEInvoices(env: Env, ids: number[]): Promise<void> {
  if (!ids.length) return;
  try {
    await env.NOTIFICATIONS.sendBatch(ids.map((id) => ({ body: { einvoice: id } as never })));
  } catch (err) {
    console.warn(JSON.stringify({ level: "warn", event: "einvoice.enqueue_failed", error: String(err) }));
  }
}

/** Stamps what waits and queues it for ZATCA: after a document is issued, and each minute. */
export async function stampAndQueue(env: Env): Promise<number> {
  const ids = await stampWaiting(env);
  await enqueueEInvoices(env, ids);
  return ids.length;
}

/** The cron's part: pending copies due (never tried, or their retry delay passed), oldest first. */
export async function reportDue(env: Env, limit = 25): Promise<number> {
  const { results } = await env.DB.prepare(
    `SELECT id FROM einvoices WHERE status = 'pending' AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
     ORDER BY icv LIMIT ?`,
  )
    .bind(new Date().toISOString(), limit)
    .all<{ id: number }>();
  let sent = 0;
  for (const { id } of results) if (await submitEInvoice(env, id)) sent++;
  return sent;
}

/**
 * The alert: simplified copies still unreported 12 hours after their stamp, each logged once as an
 * error (the operator's log alerting watches for it) and counted on the console's page.
 */
export async function alertOverdue(env: Env): Promise<number> {
  const cutoff = new Date(Date.now() - OVERDUE_MS).toISOString();
  const { results } = await env.DB.prepare(
    `UPDATE einvoices SET alerted_at = ? WHERE status = 'pending' AND transaction_type = 'simplified'
       AND created_at < ? AND alerted_at IS NULL RETURNING id, icv, created_at`,
  )
    .bind(new Date().toISOString(), cutoff)
    .all<{ id: number; icv: number; created_at: string }>();
  for (const r of results)
    console.error(
      JSON.stringify({
        level: "error",
        event: "einvoice.report_overdue",
        id: r.id,
        icv: r.icv,
        stamped_at: r.created_at,
      }),
    );
  return results.length;
}

export const overdueCount = async (db: D1Database) =>
  (
    await db
      .prepare(
        "SELECT COUNT(*) AS n FROM einvoices WHERE status = 'pending' AND transaction_type = 'simplified' AND created_at < ?",
      )
      .bind(new Date(Date.now() - OVERDUE_MS).toISOString())
      .first<{ n: number }>()
  )?.n ?? 0;

/**
 * Sends a rejected document again once staff corrected the cause: the rejected copy is superseded
 * (it keeps its place in the chain), a new copy is stamped after the head and sent at once.
 */
export async function resendEInvoice(env: Env, id: number): Promise<EInvoiceRow | null> {
  const { meta } = await env.DB.prepare(
    "UPDATE einvoices SET status = 'superseded' WHERE id = ? AND status = 'rejected'",
  )
    .bind(id)
    .run();
  if (meta.changes !== 1) return null;
  const row = await env.DB.prepare("SELECT document_id FROM einvoices WHERE id = ?")
    .bind(id)
    .first<{ document_id: number }>();
  // ZATCA never accepted the document, so it is issued again with the seller as corrected since
  // (a wrong VAT number or address in the settings is the usual cause); its number and amounts stay.
  await env.DB.prepare(
    "UPDATE tax_documents SET seller = COALESCE((SELECT value FROM store_settings WHERE key = 'seller'), seller) WHERE id = ?",
  )
    .bind(row!.document_id)
    .run();
  for (const stamped of await stampWaiting(env)) await submitEInvoice(env, stamped);
  return env.DB.prepare("SELECT * FROM einvoices WHERE document_id = ? ORDER BY icv DESC LIMIT 1")
    .bind(row!.document_id)
    .first<EInvoiceRow>();
}

/** Stamps (and queues) a document that waits for its stamp, when the unit is in production. */
export async function stampIfWaiting(env: Env, doc: { id: number }): Promise<void> {
  const unit = await loadUnit(env.DB);
  if (unit?.status !== "production" || doc.id <= unit.starts_after) return;
  if (await currentEInvoice(env.DB, doc.id)) return;
  await stampAndQueue(env);
}
