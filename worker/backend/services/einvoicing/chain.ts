import type { Env } from "../../env";
import type { EInvoiceRegistration } from "../../../../contract/einvoicing";
import type { TaxDocumentRow } from "../orders/invoices";
import type { OrderRow } from "../orders/orders";
import { certificateOfToken } from "./certificate";
import { einvoiceDataOf } from "./documents";
import { openSecret } from "./secrets";
import { FIRST_PIH, stampDocument } from "./stamp";

/**
 * The hash chain: every document the shop issues after its unit reached production is stamped in
 * issue order, each with the next invoice counter (ICV) and the previous document's hash (PIH).
 * One stamper at a time holds the unit's lease and stamps everything waiting, in one batch per
 * round; the table's UNIQUE counter and PIH refuse a second chain should two ever race, and the
 * batch is then rolled back whole and stamped again from the new head.
 */

export interface UnitRow {
  id: number;
  serial: string;
  registration: string;
  environment: string;
  status: "registered" | "compliance" | "production";
  private_key: string | null;
  csr: string | null;
  compliance_token: string | null;
  compliance_secret: string | null;
  compliance_request_id: string | null;
  compliance_passed: string;
  production_token: string | null;
  production_secret: string | null;
  certificate_expires_at: string | null;
  starts_after: number;
  lease_until: number;
  lease_token: string | null;
  updated_at: string;
  updated_by: string | null;
}

export const loadUnit = (db: D1Database) => db.prepare("SELECT * FROM einvoice_units WHERE id = 1").first<UnitRow>();

const LEASE_MS = 30_000;
/** Documents stamped per round: one D1 batch. */
const ROUND = 50;

async function takeLease(db: D1Database, token: string): Promise<boolean> {
  const now = Date.now();
  const { meta } = await db
    .prepare("UPDATE einvoice_units SET lease_until = ?, lease_token = ? WHERE id = 1 AND lease_until < ?")
    .bind(now + LEASE_MS, token, now)
    .run();
  return meta.changes === 1;
}

const releaseLease = (db: D1Database, token: string) =>
  db
    .prepare("UPDATE einvoice_units SET lease_until = 0, lease_token = NULL WHERE id = 1 AND lease_token = ?")
    .bind(token)
    .run();

/**
 * Documents waiting for their stamp: issued after the unit went to production, with no copy in the
 * chain, or whose every copy was superseded (staff corrected a rejection and sent it again).
 */
const waiting = (db: D1Database, startsAfter: number) =>
  db
    .prepare(
      `SELECT d.* FROM tax_documents d
       WHERE d.id > ? AND NOT EXISTS (SELECT 1 FROM einvoices e WHERE e.document_id = d.id AND e.status != 'superseded')
       ORDER BY d.id LIMIT ?`,
    )
    .bind(startsAfter, ROUND)
    .all<TaxDocumentRow>();

const head = (db: D1Database) =>
  db.prepare("SELECT icv, hash FROM einvoices ORDER BY icv DESC LIMIT 1").first<{ icv: number; hash: string }>();

/** The ids of the copies stamped (each to be reported or cleared); empty when another stamper holds the lease. */
export async function stampWaiting(env: Env): Promise<number[]> {
  const db = env.DB;
  const unit = await loadUnit(db);
  if (!unit || unit.status !== "production" || !unit.private_key || !unit.production_token) return [];
  const token = crypto.randomUUID();
  if (!(await takeLease(db, token))) return [];
  const stamped: number[] = [];
  try {
    const key = {
      privateKey: await openSecret(env, unit.private_key),
      certificate: certificateOfToken(unit.production_token),
    };
    const registration = JSON.parse(unit.registration) as EInvoiceRegistration;
    const started = Date.now();
    // Rounds until nothing waits, within the lease.
    while (Date.now() - started < LEASE_MS / 2) {
      const { results: docs } = await waiting(db, unit.starts_after);
      if (!docs.length) break;
      const last = await head(db);
      let icv = last?.icv ?? 0;
      let pih = last?.hash ?? FIRST_PIH;
      const orders = new Map<number, OrderRow>();
      const rows = [];
      for (const doc of docs) {
        const order =
          orders.get(doc.order_id) ??
          (await db.prepare("SELECT * FROM orders WHERE id = ?").bind(doc.order_id).first<OrderRow>())!;
        orders.set(order.id, order);
        icv += 1;
        const uuid = crypto.randomUUID();
        const data = await einvoiceDataOf(env, order, doc, registration, { icv, pih, uuid });
        const stamp = stampDocument(data, key, new Date().toISOString().slice(0, 19));
        rows.push({ doc, icv, pih, uuid, stamp, transaction: data.transaction });
        pih = stamp.hash;
      }
      const inserted = await db.batch(
        rows.map((r) =>
          db
            .prepare(
              `INSERT INTO einvoices (document_id, icv, uuid, pih, hash, transaction_type, xml, qr)
               SELECT ?, ?, ?, ?, ?, ?, ?, ?
               WHERE COALESCE((SELECT MAX(icv) FROM einvoices), 0) = ? - 1
               RETURNING id`,
            )
            .bind(r.doc.id, r.icv, r.uuid, r.pih, r.stamp.hash, r.transaction, r.stamp.xml, r.stamp.qr, r.icv),
        ),
      );
      stamped.push(...inserted.flatMap((res) => (res.results as { id: number }[]).map((x) => x.id)));
      await db
        .prepare("UPDATE einvoice_units SET lease_until = ? WHERE id = 1 AND lease_token = ?")
        .bind(Date.now() + LEASE_MS, token)
        .run();
    }
  } finally {
    await releaseLease(db, token);
  }
  return stamped;
}
