import type { Env, Lang } from "../../env";
import { BackendError } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { sellerSettingsOf, settingsDefaults } from "../shared/settings";
import { VAT_NUMBER_PATTERN, type SellerSettings } from "../../../../contract/settings";
import { allocate } from "../shared/money";
import { parseAddress, type OrderItemRow, type OrderRow } from "./orders";
import type {
  OrderDocuments,
  TaxDocument,
  TaxDocumentKind,
  TaxDocumentLine,
  TaxSeller,
} from "../../../../contract/invoices";
import { msg } from "../../messages";
import type { EInvoiceStatus } from "../../../../contract/einvoicing";
import { readTlv, tlv } from "../einvoicing/stamp";

export interface EInvoiceRow {
  id: number;
  document_id: number;
  icv: number;
  uuid: string;
  pih: string;
  hash: string;
  transaction_type: "simplified" | "standard";
  xml: string;
  qr: string;
  status: EInvoiceStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  messages: string | null;
  cleared_xml: string | null;
  alerted_at: string | null;
  created_at: string;
  answered_at: string | null;
}

/** A document's signed copy in force: its latest in the chain (a rejected one until it is sent again). */
export const currentEInvoice = (db: D1Database, documentId: number) =>
  db
    .prepare("SELECT * FROM einvoices WHERE document_id = ? ORDER BY icv DESC LIMIT 1")
    .bind(documentId)
    .first<EInvoiceRow>();

/**
 * Tax documents: a paid order's simplified tax invoice and a succeeded refund's credit
 * note. Each is issued by statements that run IN the batch of the event (payment, refund), so an
 * order is never paid without its invoice; amounts are copied at issue (migration 0014) and never
 * recomputed. Orders paid before the migration get theirs on first read (ensureDocuments).
 */

export interface TaxDocumentRow {
  id: number;
  kind: TaxDocumentKind;
  seq: number;
  number: string;
  order_id: number;
  refund_id: string | null;
  subtotal: number;
  discount: number;
  shipping: number;
  vat: number;
  total: number;
  currency: string;
  issued_at: string;
  /** The seller as issued (JSON, contract/settings.ts SellerSettings); null: the one in force. */
  seller: string | null;
  transaction_type: "simplified" | "standard";
  /** Debit notes: why the total was raised. */
  reason: string | null;
}

// The kind's next number, inside the issuing batch's transaction: no gaps, no duplicates.
const nextSeq = (kind: TaxDocumentKind) =>
  `(SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM tax_documents WHERE kind = '${kind}')`;

/**
 * The seller a document keeps (migration 0033): the one saved in the store's settings, issued in
 * the document's own statement. Null while the seller comes from the deployment's variables
 * (services/shared/settings.ts writes it into those documents on the seller's first save).
 */
const KEPT_SELLER = "(SELECT value FROM store_settings WHERE key = 'seller')";

/** A business buyer's order (its VAT number given at checkout) is a standard transaction; a shopper's simplified. */
const TRANSACTION_OF_ORDER = "CASE WHEN o.buyer_vat_number IS NOT NULL THEN 'standard' ELSE 'simplified' END";

/** Issues the order's invoice if it is paid and has none (idempotent: one invoice per order). */
export function invoiceStatements(db: D1Database, order: { id: number }): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT OR IGNORE INTO tax_documents (kind, seq, number, order_id, subtotal, discount, shipping, vat, total, currency, seller, transaction_type)
         SELECT 'invoice', n.seq, 'INV-' || printf('%06d', n.seq), o.id, o.subtotal, o.discount, o.shipping, o.vat, o.total, o.currency,
           ${KEPT_SELLER}, ${TRANSACTION_OF_ORDER}
         FROM orders o, ${nextSeq("invoice")} n WHERE o.id = ? AND o.paid_at IS NOT NULL`,
      )
      .bind(order.id),
  ];
}

/**
 * The VAT rate of an order's documents: the one it was charged at (migration 0020), or for an order
 * placed before orders kept it, the deployment's rate (VAT_RATE), which it was charged at then; a
 * rate saved later in the console is not applied to it.
 */
export function vatRateOf(env: Partial<Env>, order: { vat_rate?: number | null }): number {
  return order.vat_rate ?? settingsDefaults(env).tax.vat_rate;
}

/** The VAT contained in an amount that includes it, rounded to the halala like checkout's totals. */
export const vatIn = (amount: number, rate: number) => Math.round((amount * rate) / (1 + rate));

/**
 * Issues a succeeded refund's credit note (and, first, the order's invoice if it predates 0014).
 * Guarded on the refund having succeeded, so it is a no-op in a failed refund's batch.
 */
export function creditNoteStatements(
  db: D1Database,
  order: { id: number; currency: string },
  refund: { id: string; amount: number },
  vatRate: number,
): D1PreparedStatement[] {
  return [
    ...invoiceStatements(db, order),
    db
      .prepare(
        `INSERT OR IGNORE INTO tax_documents (kind, seq, number, order_id, refund_id, vat, total, currency, seller, transaction_type)
         SELECT 'credit_note', n.seq, 'CN-' || printf('%06d', n.seq), r.order_id, r.id, ?, r.amount, ?, ${KEPT_SELLER},
           (SELECT ${TRANSACTION_OF_ORDER} FROM orders o WHERE o.id = r.order_id)
         FROM refunds r, ${nextSeq("credit_note")} n WHERE r.id = ? AND r.status = 'succeeded'`,
      )
      .bind(vatIn(refund.amount, vatRate), order.currency, refund.id),
  ];
}

/**
 * Issues a debit note: the order's total raised after its invoice (a charge agreed with the buyer
 * and collected, such as a redelivery fee), with why. Refused (no row) unless the order has its
 * invoice; the note names that invoice and follows its transaction (simplified or standard).
 */
export function debitNoteStatements(
  db: D1Database,
  order: { id: number; currency: string },
  charge: { amount: number; reason: string },
  vatRate: number,
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `INSERT INTO tax_documents (kind, seq, number, order_id, vat, total, currency, seller, transaction_type, reason)
         SELECT 'debit_note', n.seq, 'DN-' || printf('%06d', n.seq), i.order_id, ?, ?, ?, ${KEPT_SELLER}, i.transaction_type, ?
         FROM tax_documents i, ${nextSeq("debit_note")} n WHERE i.order_id = ? AND i.kind = 'invoice'`,
      )
      .bind(vatIn(charge.amount, vatRate), charge.amount, order.currency, charge.reason, order.id),
  ];
}

async function documentsOf(db: D1Database, orderId: number): Promise<TaxDocumentRow[]> {
  const { results } = await db
    .prepare("SELECT * FROM tax_documents WHERE order_id = ? ORDER BY id")
    .bind(orderId)
    .all<TaxDocumentRow>();
  return results;
}

/**
 * The order's documents, issuing any that are missing: orders paid (and refunds that succeeded)
 * before migration 0014 get their documents on first read, numbered then.
 */
export async function ensureDocuments(env: Env, order: OrderRow): Promise<TaxDocumentRow[]> {
  const db = env.DB;
  const docs = await documentsOf(db, order.id);
  const { results: refunds } = await db
    .prepare("SELECT id, amount FROM refunds WHERE order_id = ? AND status = 'succeeded' ORDER BY created_at, rowid")
    .bind(order.id)
    .all<{ id: string; amount: number }>();
  const missingInvoice = order.paid_at !== null && !docs.some((d) => d.kind === "invoice");
  const missingNotes = refunds.filter((r) => !docs.some((d) => d.refund_id === r.id));
  if (!missingInvoice && !missingNotes.length) return docs;
  const rate = vatRateOf(env, order);
  await db.batch([
    ...invoiceStatements(db, order),
    ...missingNotes.flatMap((r) => creditNoteStatements(db, order, r, rate).slice(1)),
  ]);
  return documentsOf(db, order.id);
}

/** For the order answer's links, several orders at once (no lazy issue: that is the document's read). */
export async function documentLinks(db: D1Database, orderIds: number[]): Promise<Map<number, OrderDocuments>> {
  const links = new Map<number, OrderDocuments>(
    orderIds.map((id) => [id, { invoice_number: null, credit_notes: [], debit_notes: [] }]),
  );
  if (!orderIds.length) return links;
  const { results } = await db
    .prepare(
      `SELECT id, kind, number, order_id FROM tax_documents WHERE order_id IN (${orderIds.map(() => "?").join(",")}) ORDER BY id`,
    )
    .bind(...orderIds)
    .all<Pick<TaxDocumentRow, "id" | "kind" | "number" | "order_id">>();
  for (const doc of results) {
    const entry = links.get(doc.order_id)!;
    if (doc.kind === "invoice") entry.invoice_number = doc.number;
    else if (doc.kind === "debit_note") entry.debit_notes.push({ id: doc.id, number: doc.number });
    else entry.credit_notes.push({ id: doc.id, number: doc.number });
  }
  return links;
}

/** wrangler.toml's demo VAT number: never on a document of a shop that ships. */
export const DEMO_VAT_NUMBER = "300000000000003";

/**
 * The seller of a document (the store's settings, or the SELLER_* variables they start from); 503
 * when it is missing, its VAT number is not a Saudi one (15 digits, starting and ending with 3),
 * or production still carries the demo number.
 */
export function sellerOf(
  env: Partial<Env>,
  lang: Lang,
  seller: SellerSettings = settingsDefaults(env).seller,
): TaxSeller {
  const nameEn = seller.name_en.trim();
  const vat = seller.vat_number.trim();
  if (!nameEn || !VAT_NUMBER_PATTERN.test(vat) || (env.ENVIRONMENT === "production" && vat === DEMO_VAT_NUMBER)) {
    console.error(JSON.stringify({ level: "error", event: "invoice.seller_unconfigured" }));
    throw new BackendError(503, say(lang, msg("orders.invoices.unavailable")));
  }
  return {
    name_en: nameEn,
    name_ar: seller.name_ar.trim() || nameEn,
    vat_number: vat,
    address_en: seller.address_en.trim() || null,
    address_ar: seller.address_ar.trim() || seller.address_en.trim() || null,
  };
}

/**
 * Where a shopper sends returned items: the seller's name and address in their language (the
 * address printed on invoices), or null when none is configured, and the messages and the order
 * page then say the shop will tell them.
 */
export function returnAddressOf(
  seller: { name_en: string; name_ar: string; address_en: string; address_ar: string },
  lang: Lang,
): string | null {
  const address =
    (lang === "ar" ? seller.address_ar.trim() : "") || seller.address_en.trim() || seller.address_ar.trim();
  if (!address) return null;
  const name = (lang === "ar" ? seller.name_ar.trim() : "") || seller.name_en.trim();
  return name ? `${name}, ${address}` : address;
}

/** A money amount as ZATCA's QR writes it: SAR with two decimals, "115.00". */
export const qrAmount = (halalas: number) => (halalas / 100).toFixed(2);

/** ZATCA phase-1 QR payload: TLV tags 1 seller name, 2 VAT number, 3 timestamp (ISO 8601), 4 total with VAT, 5 VAT amount. */
export function zatcaQr(fields: {
  sellerName: string;
  vatNumber: string;
  timestamp: string;
  total: string;
  vat: string;
}): string {
  return tlv([fields.sellerName, fields.vatNumber, fields.timestamp, fields.total, fields.vat]);
}

/** A ZATCA QR payload's fields by tag, as text (tests, and a check on what is drawn). */
export function decodeZatcaQr(base64: string): Record<number, string> {
  return Object.fromEntries([...readTlv(base64)].map(([tag, value]) => [tag, new TextDecoder().decode(value)]));
}

const LINE_TEXT = {
  shipping: msg("orders.invoices.lineText.shipping"),
  codFee: msg("orders.invoices.lineText.codFee"),
  discount: msg("orders.invoices.lineText.discount"),
  refund: msg("orders.invoices.lineText.refund"),
};

const RETURN_REASONS: Record<string, { en: string; ar: string }> = {
  damaged: msg("orders.invoices.returnReasons.damaged"),
  wrong_item: msg("orders.invoices.returnReasons.wrongItem"),
  not_as_described: msg("orders.invoices.returnReasons.notAsDescribed"),
  changed_mind: msg("orders.invoices.returnReasons.changedMind"),
  other: msg("orders.invoices.returnReasons.other"),
};

/**
 * What a credit note's refund gave back, line by line: the returned lines of a return (with the
 * shopper's reasons), or the lines and shipping staff refunded from the console (with the reason
 * they typed). `parts` is empty when they do not add up to the note's total: it then has one line.
 */
async function creditNoteParts(
  db: D1Database,
  doc: TaxDocumentRow,
  lang: Lang,
): Promise<{ parts: { name: string; quantity: number; total: number }[]; reason: string | null }> {
  const [refund, lineRows] = await db.batch([
    db.prepare("SELECT reason, return_id, shipping FROM refunds WHERE id = ?").bind(doc.refund_id),
    db
      .prepare(
        `SELECT oi.name_en, oi.name_ar, x.quantity, x.amount, NULL AS reason FROM refund_items x
           JOIN order_items oi ON oi.id = x.order_item_id WHERE x.refund_id = ?1
         UNION ALL
         SELECT oi.name_en, oi.name_ar, ri.quantity, ri.amount, ri.reason FROM return_items ri
           JOIN order_items oi ON oi.id = ri.order_item_id
           WHERE ri.return_id = (SELECT return_id FROM refunds WHERE id = ?1)`,
      )
      .bind(doc.refund_id),
  ]);
  const r = refund.results[0] as { reason: string | null; return_id: string | null; shipping: number } | undefined;
  const rows = lineRows.results as {
    name_en: string;
    name_ar: string;
    quantity: number;
    amount: number;
    reason: string | null;
  }[];
  const returnReasons = [...new Set(rows.map((l) => l.reason).filter((x): x is string => x !== null))]
    .map((code) => say(lang, RETURN_REASONS[code] ?? { en: code, ar: code }))
    .join(lang === "ar" ? "، " : ", ");
  const reason = r?.reason ?? (returnReasons || null);
  const parts = [
    ...rows.map((l) => ({ name: lang === "ar" ? l.name_ar : l.name_en, quantity: l.quantity, total: l.amount })),
    ...(r && r.shipping > 0 ? [{ name: say(lang, LINE_TEXT.shipping), quantity: 1, total: r.shipping }] : []),
  ];
  const sum = parts.reduce((a, p) => a + p.total, 0);
  return { parts: sum === doc.total ? parts : [], reason };
}

/** A line of a document before VAT is split: what was charged for it, VAT included. */
export interface DocumentPart {
  name: string;
  quantity: number;
  total: number;
}

/**
 * What a document charges or credits, line by line in `lang`, VAT included, and its discount
 * (invoices) and reason (notes): the one reading of a document's lines, for the page and the XML.
 */
export async function documentParts(
  env: Env,
  order: OrderRow,
  doc: TaxDocumentRow,
  lang: Lang,
): Promise<{ parts: DocumentPart[]; discount: number; reason: string | null }> {
  if (doc.kind === "invoice") {
    const { results: items } = await env.DB.prepare("SELECT * FROM order_items WHERE order_id = ? ORDER BY id")
      .bind(order.id)
      .all<OrderItemRow>();
    return {
      parts: [
        ...items.map((i) => ({
          name: lang === "ar" ? i.name_ar : i.name_en,
          quantity: i.quantity,
          total: i.line_total,
        })),
        ...(doc.shipping > 0 ? [{ name: say(lang, LINE_TEXT.shipping), quantity: 1, total: doc.shipping }] : []),
        ...(order.cod_fee > 0 ? [{ name: say(lang, LINE_TEXT.codFee), quantity: 1, total: order.cod_fee }] : []),
      ],
      discount: doc.discount,
      reason: null,
    };
  }
  if (doc.kind === "debit_note")
    return { parts: [{ name: doc.reason ?? "", quantity: 1, total: doc.total }], discount: 0, reason: doc.reason };
  const refunded = await creditNoteParts(env.DB, doc, lang);
  // The refund's own lines when they add up to it (a return's, or a console refund's of lines
  // and shipping); otherwise (an amount alone, a return capped by what was left) one line.
  return {
    parts: refunded.parts.length
      ? refunded.parts
      : [{ name: say(lang, LINE_TEXT.refund, { number: order.number }), quantity: 1, total: doc.total }],
    discount: 0,
    reason: refunded.reason,
  };
}

/** A document as the contract answers it, with its lines in `lang` and its QR payload. */
export async function presentTaxDocument(
  env: Env,
  order: OrderRow,
  doc: TaxDocumentRow,
  lang: Lang,
): Promise<TaxDocument> {
  const seller = sellerOf(env, lang, await sellerSettingsOf(env, doc.seller));
  const rate = vatRateOf(env, order);
  const excl = (incl: number) => Math.round(incl / (1 + rate));
  const { parts: charged, discount, reason } = await documentParts(env, order, doc, lang);
  const parts = [
    ...charged.map((p) => ({ ...p, unit: Math.round(p.total / p.quantity) })),
    ...(discount > 0 ? [{ name: say(lang, LINE_TEXT.discount), quantity: 1, unit: -discount, total: -discount }] : []),
  ];
  // A stamped document states its VAT in its QR (tag 5, the XML's total VAT): the page says the same.
  const einvoice = await currentEInvoice(env.DB, doc.id);
  const vat = einvoice ? Math.round(Number(new TextDecoder().decode(readTlv(einvoice.qr).get(5))) * 100) : doc.vat;
  const vats = allocate(
    vat,
    parts.map((p) => p.total),
  );
  const lines: TaxDocumentLine[] = parts.map((p, i) => ({
    name: p.name,
    quantity: p.quantity,
    unit_price: excl(p.unit),
    vat: vats[i],
    line_total: p.total,
  }));
  const invoiceNumber =
    doc.kind === "credit_note"
      ? ((
          await env.DB.prepare("SELECT number FROM tax_documents WHERE order_id = ? AND kind = 'invoice'")
            .bind(order.id)
            .first<{ number: string }>()
        )?.number ?? null)
      : null;
  const address = parseAddress(order.address);
  return {
    kind: doc.kind,
    number: doc.number,
    issued_at: doc.issued_at,
    order_number: order.number,
    invoice_number: invoiceNumber,
    seller,
    buyer: {
      name: address.name,
      city: address.city,
      short_address: address.short_address ?? null,
      company: order.buyer_company ?? null,
      vat_number: order.buyer_vat_number ?? null,
    },
    lines,
    reason,
    subtotal: doc.total - vat,
    discount: doc.discount,
    shipping: doc.shipping,
    vat,
    total: doc.total,
    vat_rate: rate,
    currency: doc.currency,
    qr:
      einvoice?.qr ??
      zatcaQr({
        sellerName: seller.name_ar,
        vatNumber: seller.vat_number,
        timestamp: doc.issued_at,
        total: qrAmount(doc.total),
        vat: qrAmount(doc.vat),
      }),
    transaction: doc.transaction_type,
    einvoice: einvoice ? { uuid: einvoice.uuid, icv: einvoice.icv, status: einvoice.status } : null,
  };
}

/** The order's invoice or one of its credit notes, issuing missing ones first; null when none. */
export async function findTaxDocument(
  env: Env,
  order: OrderRow,
  which: { kind: "invoice" } | { kind: "credit_note" | "debit_note"; id: number },
): Promise<TaxDocumentRow | null> {
  const docs = await ensureDocuments(env, order);
  return docs.find((d) => d.kind === which.kind && (which.kind === "invoice" || d.id === which.id)) ?? null;
}
