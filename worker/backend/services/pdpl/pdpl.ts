import { EXPORT_FORMAT_VERSION, type AccountExport } from "../../../../contract/pdpl";
import { CONSENT_PURPOSES } from "../../../../contract/consents";
import { SHOPPER_TOPICS } from "../../../../contract/unsubscribe";
import type { Env, Lang } from "../../env";
import { BackendError, notFound } from "../../http";
import { msg } from "../../messages";
import { say } from "../../../../contract/server/i18n";
import { readConsents } from "../consents/consents";
import { recipientHash } from "../messages/unsubscribe";
import { forgetPhotos, presentPhoto, type PhotoRow } from "../reviews/photos";

/**
 * The shopper's rights under the Personal Data Protection Law: a copy of everything the shop holds
 * about an account (`exportAccount`), and its erasure (`eraseAccount`), asked for by the shopper
 * (routes/pdpl.ts) or by staff on their behalf (routes/admin/customers.ts).
 *
 * What erasure keeps, and why: orders and their tax documents stay for six years (Saudi VAT law),
 * linked to the account's row, which stays as a nameless tombstone (its id only), so a shop's
 * books still add up. The order rows lose the buyer's name, email, phone and delivery address (a
 * simplified B2C tax invoice names no buyer); a B2B order keeps the buyer's company, VAT number
 * and business address, which a standard tax invoice must carry. Signed e-invoice XML reported to
 * ZATCA (`einvoices.xml`, `cleared_xml`) is kept unchanged: it is the legal document itself,
 * hash-chained to the next one, so it cannot be edited, and a simplified one may carry the name
 * the shopper gave with the address. Nothing of it is in R2; invoice PDFs are drawn on demand
 * from the (now blanked) order. Erasure refuses while an order, a return or a bank refund is
 * still under way, since the shop needs the address and contact to finish it.
 *
 * The sweep is generic where it can be: the `users` row is blanked column by column from the
 * live schema, and any table not named below that links to `users(id)` has its rows deleted.
 * Every table must be in ERASURE_HANDLED or HOLDS_NO_PERSONAL_DATA: test/integration/pdpl.test.ts
 * fails on one that is in neither, so the next feature decides what becomes of its data.
 */

/** Tables whose personal data this service erases or blanks (each is named in `erasureStatements`). */
export const ERASURE_HANDLED = [
  "users",
  "auth_tokens",
  "staff_sessions",
  "otp_codes",
  "reset_tokens",
  "account_notices",
  "addresses",
  "carts",
  "cart_items",
  "wishlist_items",
  "wishlist_shares",
  "comparisons",
  "stock_alerts",
  "reviews",
  "review_photos",
  "review_votes",
  "review_reports",
  "questions",
  "answers",
  "consents",
  "cart_contacts",
  "cart_reminders",
  "message_channel_consents",
  "whatsapp_statuses",
  "shopper_messages",
  "notifications",
  "contact_messages",
  "dev_outbox",
  "staff_notes",
  "audit_log",
  "orders",
  "promo_redemptions",
  "return_items",
  "bank_transfers",
] as const;

/**
 * Tables that hold no personal data, or only keyed hashes of it (message_optouts: an address's
 * hash kept so an opt-out survives; account_counters, rate_limits: hashed or network keys), or
 * records the tax rule keeps that name no one once the order is blanked (tax_documents, einvoices:
 * see above). `erasure_log` is the record of erasures itself (an id and a time).
 */
export const HOLDS_NO_PERSONAL_DATA = [
  "erasure_log",
  "cart_restores",
  "cart_recoveries",
  "message_optouts",
  "account_counters",
  "rate_limits",
  "otp_tries",
  "order_items",
  "order_events",
  "stock_moves",
  "payments",
  "payment_events",
  "refunds",
  "refund_items",
  "returns",
  "late_payments",
  "cod_codes",
  "cod_remittances",
  "shipments",
  "shipment_items",
  "shipment_events",
  "carrier_webhooks",
  "tax_documents",
  "einvoices",
  "einvoice_units",
  "review_invitations",
  "promo_codes",
  "staff",
  "staff_invitations",
  "media_uploads",
  "store_settings",
  "versions",
  "rum_buckets",
  "search_keep_votes",
  "search_kept",
  "search_kept_rows",
  "search_kept_cells",
  "search_kept_suggestions",
  "search_synonyms",
  "categories",
  "brands",
  "products",
  "product_variants",
  "product_options",
  "product_option_values",
  "variant_option_values",
  "product_attribute_values",
  "product_facet_counts",
  "product_ranks",
  "attributes",
  "attribute_options",
  "category_attributes",
  "attribute_value_counts",
  "attribute_pair_counts",
  "services",
  "pages",
  "banners",
  "inventory_adjustments",
] as const;

/** Tables SQLite, D1 and the search index keep for themselves (no shop data of their own). */
export const isInternalTable = (name: string) =>
  /^(sqlite_|_cf_|d1_)/.test(name) || /^product_(details_)?search(_\w+)?$/.test(name);

/** Columns never handed out, in the export or anywhere: secrets and their hashes. */
const SECRET_COLUMN = /(^password|_hash$|^token|secret|private_key|idempotency_key)/;

type Row = Record<string, unknown>;
const clean = (row: Row): Row => Object.fromEntries(Object.entries(row).filter(([k]) => !SECRET_COLUMN.test(k)));

interface Person {
  id: number;
  email: string | null;
  phone: string | null;
  pending_email: string | null;
}

async function person(db: D1Database, userId: number): Promise<Person | null> {
  return db.prepare("SELECT id, email, phone, pending_email FROM users WHERE id = ?").bind(userId).first<Person>();
}

/** Addresses the person is reached at, for the tables that know them only by address. */
const addressesOf = (p: Person): string[] => {
  const national = p.phone ? /^\+966(5\d{8})$/.exec(p.phone) : null;
  return [p.email?.toLowerCase(), p.pending_email?.toLowerCase(), p.phone, national ? `0${national[1]}` : null].filter(
    (a): a is string => Boolean(a),
  );
};

/** A table's columns, from the live schema. */
async function columnsOf(
  db: D1Database,
  table: string,
): Promise<{ name: string; notnull: number; pk: number; dflt_value: string | null }[]> {
  const { results } = await db
    .prepare(`PRAGMA table_info("${table}")`)
    .all<{ name: string; notnull: number; pk: number; dflt_value: string | null }>();
  return results;
}

/** Every table of the shop (its own, not SQLite's or D1's). */
export async function shopTables(db: D1Database): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all<{ name: string }>();
  return results.map((r) => r.name).filter((n) => !isInternalTable(n));
}

/** Tables named in neither list that carry a `user_id`: swept by account id (and exported under `more`). */
async function unlistedUserTables(db: D1Database): Promise<string[]> {
  const known = new Set<string>([...ERASURE_HANDLED, ...HOLDS_NO_PERSONAL_DATA]);
  const found: string[] = [];
  for (const table of await shopTables(db)) {
    if (known.has(table)) continue;
    if ((await columnsOf(db, table)).some((c) => c.name === "user_id")) found.push(table);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Export

/** Everything the shop holds about an account, as the file the shopper downloads. */
export async function exportAccount(
  env: Pick<Env, "DB" | "AUTH_PEPPER" | "ENVIRONMENT">,
  userId: number,
): Promise<AccountExport> {
  const db = env.DB;
  const all = async (sql: string, ...binds: unknown[]) =>
    (
      await db
        .prepare(sql)
        .bind(...binds)
        .all<Row>()
    ).results.map(clean);
  const account = await db.prepare("SELECT * FROM users WHERE id = ?").bind(userId).first<Row>();
  if (!account) throw notFound();
  const p = (await person(db, userId))!;

  const orders = await all("SELECT * FROM orders WHERE user_id = ? ORDER BY id", userId);
  for (const order of orders) {
    const id = order.id;
    if (typeof order.address === "string") order.address = JSON.parse(order.address);
    delete order.network_hash;
    order.lines = await all(
      "SELECT sku, name_en, name_ar, variant_en, variant_ar, quantity, unit_price, line_total FROM order_items WHERE order_id = ? ORDER BY id",
      id,
    );
    order.payments = await all(
      "SELECT id, provider, method, status, amount, currency, created_at FROM payments WHERE order_id = ? ORDER BY created_at",
      id,
    );
    order.refunds = await all(
      "SELECT id, amount, shipping, reason, status, created_at FROM refunds WHERE order_id = ? ORDER BY created_at",
      id,
    );
    order.shipments = await all(
      "SELECT kind, carrier, waybill, status, created_at, picked_up_at, delivered_at FROM shipments WHERE order_id = ? ORDER BY id",
      id,
    );
    order.returns = await all(
      `SELECT r.id, r.status, r.amount, r.created_at, r.refunded_at,
         (SELECT json_group_array(json_object('product_id', i.product_id, 'quantity', i.quantity, 'reason', i.reason, 'note', i.note))
          FROM return_items i WHERE i.return_id = r.id) AS items
       FROM returns r WHERE r.order_id = ? ORDER BY r.created_at`,
      id,
    );
    for (const r of order.returns as Row[]) if (typeof r.items === "string") r.items = JSON.parse(r.items);
    order.tax_documents = await all(
      "SELECT kind, number, total, vat, issued_at FROM tax_documents WHERE order_id = ? ORDER BY seq",
      id,
    );
  }

  const reviews = await all("SELECT * FROM reviews WHERE user_id = ? ORDER BY id", userId);
  for (const review of reviews) {
    const { results } = await db
      .prepare("SELECT key, thumb_key, width, height FROM review_photos WHERE review_id = ? ORDER BY position, id")
      .bind(review.id)
      .all<PhotoRow>();
    review.photos = results.map((photo) => presentPhoto(photo).url);
  }

  const addresses = addressesOf(p);
  const optOuts: Row = {};
  for (const address of addresses) {
    const hash = await recipientHash(env, address);
    const { results } = await db
      .prepare("SELECT topic, created_at FROM message_optouts WHERE recipient_hash = ?")
      .bind(hash)
      .all<{ topic: string; created_at: string }>();
    optOuts[address] = SHOPPER_TOPICS.map((topic) => ({
      topic,
      receives: !results.some((r) => r.topic === topic),
      stopped_at: results.find((r) => r.topic === topic)?.created_at ?? null,
    }));
  }
  const consents = await readConsents(db, { userId });

  const more: Record<string, Row[]> = {};
  for (const table of await unlistedUserTables(db))
    more[table] = await all(`SELECT * FROM "${table}" WHERE user_id = ?`, userId);

  const inList = addresses.length ? addresses.map(() => "?").join(", ") : "NULL";
  return {
    format_version: EXPORT_FORMAT_VERSION,
    generated_at: new Date().toISOString(),
    account: clean(account),
    addresses: await all("SELECT * FROM addresses WHERE user_id = ? ORDER BY id", userId),
    orders,
    reviews,
    questions: await all("SELECT * FROM questions WHERE user_id = ? ORDER BY id", userId),
    answers: await all("SELECT * FROM answers WHERE user_id = ? ORDER BY id", userId),
    wishlist: await all("SELECT * FROM wishlist_items WHERE user_id = ? ORDER BY saved_at", userId),
    comparisons: await all("SELECT * FROM comparisons WHERE user_id = ?", userId),
    stock_alerts: await all(
      `SELECT * FROM stock_alerts WHERE user_id = ? OR recipient IN (${inList}) ORDER BY id`,
      userId,
      ...addresses,
    ),
    consents: consents.history.map((r) => ({ ...r })),
    message_preferences: {
      consents: Object.fromEntries(CONSENT_PURPOSES.map((purpose) => [purpose, consents.current[purpose]])),
      by_address: optOuts,
    },
    cart: await all(
      `SELECT i.product_id, i.variant_id, i.quantity, i.added_at FROM cart_items i JOIN carts c ON c.id = i.cart_id WHERE c.user_id = ?`,
      userId,
    ),
    more,
  };
}

// ---------------------------------------------------------------------------------------------
// Erasure

export type ErasureBy = { by: "self" } | { by: "staff"; staffUserId: number; reason: string };

/** Refuses an erasure the shop cannot do yet: a staff account, or business still under way. */
export async function refuseErasure(db: D1Database, userId: number, lang: Lang): Promise<void> {
  const row = await db
    .prepare(
      `SELECT
         EXISTS (SELECT 1 FROM staff WHERE user_id = ?1) AS staff,
         EXISTS (SELECT 1 FROM orders WHERE user_id = ?1 AND status IN ('paid', 'processing', 'shipped')) AS open_orders,
         EXISTS (SELECT 1 FROM orders WHERE user_id = ?1 AND status = 'pending_payment'
                   AND (reserved_until IS NULL OR reserved_until > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))) AS unpaid,
         EXISTS (SELECT 1 FROM returns r JOIN orders o ON o.id = r.order_id
                   WHERE o.user_id = ?1 AND r.status IN ('requested', 'approved', 'received')) AS open_returns,
         EXISTS (SELECT 1 FROM bank_transfers b JOIN orders o ON o.id = b.order_id
                   WHERE o.user_id = ?1 AND b.status = 'due') AS due_transfers`,
    )
    .bind(userId)
    .first<Record<string, number>>();
  if (row?.staff) throw new BackendError(409, say(lang, msg("pdpl.staffAccount")));
  if (row && (row.open_orders || row.unpaid || row.open_returns || row.due_transfers))
    throw new BackendError(409, say(lang, msg("pdpl.openOrders")));
}

/** The `users` row's columns that stay on the tombstone; every other one is cleared. */
const USER_KEPT = new Set(["id", "created_at", "updated_at"]);

/** An order's delivery address once erased: a B2B order keeps its business address (a standard invoice needs it). */
const BLANK_ADDRESS = `CASE WHEN buyer_vat_number IS NOT NULL
    THEN json_set(address, '$.name', '', '$.phone', '', '$.notes', '')
    ELSE json_object('name', '', 'phone', '', 'city', '', 'district', '', 'street', '', 'building', '', 'postal_code', '', 'notes', '')
  END`;

/**
 * Erases an account's personal data in one batch (see the top of this file), records the
 * erasure, then deletes the review photos from R2 and the account's own-server sessions from KV.
 */
export async function eraseAccount(
  env: Pick<Env, "DB" | "MEDIA" | "KV" | "AUTH_PEPPER" | "ENVIRONMENT">,
  userId: number,
  who: ErasureBy,
): Promise<void> {
  const db = env.DB;
  const p = await person(db, userId);
  if (!p) throw notFound();
  const addresses = addressesOf(p);
  const list = JSON.stringify(addresses);
  // What a guest's decisions and reminders are kept under: the keyed hash of each address.
  const hashes = JSON.stringify(await Promise.all(addresses.map((a) => recipientHash(env, a))));
  const mine = "(SELECT id FROM orders WHERE user_id = ?1)";
  const { results: photos } = await db
    .prepare("SELECT p.key, p.thumb_key FROM review_photos p JOIN reviews r ON r.id = p.review_id WHERE r.user_id = ?")
    .bind(userId)
    .all<{ key: string; thumb_key: string | null }>();

  // The users row: every column but the id and times, from the live schema, so a column added
  // later (a channel, a preference) is cleared too. NOT NULL text becomes its constant default
  // (a preference back to the shop's default, which its CHECK allows) or else '' (name, the
  // hash: an empty hash matches no password).
  const userColumns = (await columnsOf(db, "users")).filter((c) => !USER_KEPT.has(c.name));
  const blank = (c: { notnull: number; dflt_value: string | null }) =>
    !c.notnull ? "NULL" : c.dflt_value !== null && /^'[^']*'$/.test(c.dflt_value) ? c.dflt_value : "''";
  const sets = userColumns.map((c) => `"${c.name}" = ${blank(c)}`).join(", ");

  const statements: D1PreparedStatement[] = [
    db.prepare("DELETE FROM staff_sessions WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM auth_tokens WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM otp_codes WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM reset_tokens WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM account_notices WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM addresses WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM cart_items WHERE cart_id IN (SELECT id FROM carts WHERE user_id = ?1)").bind(userId),
    db.prepare("DELETE FROM carts WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM wishlist_items WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM wishlist_shares WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM comparisons WHERE user_id = ?1").bind(userId),
    db
      .prepare("DELETE FROM stock_alerts WHERE user_id = ?1 OR recipient IN (SELECT value FROM json_each(?2))")
      .bind(userId, list),
    db.prepare("DELETE FROM review_votes WHERE voter = ?1").bind(`user:${userId}`),
    db.prepare("DELETE FROM review_reports WHERE reporter = ?1").bind(`user:${userId}`),
    db.prepare("DELETE FROM review_photos WHERE review_id IN (SELECT id FROM reviews WHERE user_id = ?1)").bind(userId),
    db.prepare("DELETE FROM reviews WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM answers WHERE user_id = ?1").bind(userId),
    db.prepare("DELETE FROM questions WHERE user_id = ?1").bind(userId),
    db
      .prepare("DELETE FROM consents WHERE user_id = ?1 OR recipient_hash IN (SELECT value FROM json_each(?2))")
      .bind(userId, hashes),
    // A cart left as a guest names the address it was to be reminded at; the reminders sent stay
    // counted for the report, but no longer say whose they were.
    db.prepare("DELETE FROM cart_contacts WHERE lower(recipient) IN (SELECT value FROM json_each(?1))").bind(list),
    db
      .prepare(
        "UPDATE cart_reminders SET user_id = NULL, recipient_hash = NULL WHERE user_id = ?1 OR recipient_hash IN (SELECT value FROM json_each(?2))",
      )
      .bind(userId, hashes),
    db.prepare("DELETE FROM message_channel_consents WHERE user_id = ?1").bind(userId),
    // WhatsApp's statuses name the number (as its wa_id: the digits without the plus).
    db
      .prepare(
        `DELETE FROM whatsapp_statuses WHERE wamid IN (SELECT provider_id FROM notifications WHERE order_id IN ${mine} AND provider_id IS NOT NULL)
           OR recipient IN (SELECT ltrim(value, '+') FROM json_each(?2))`,
      )
      .bind(userId, list),
    db.prepare("DELETE FROM shopper_messages WHERE lower(recipient) IN (SELECT value FROM json_each(?1))").bind(list),
    db
      .prepare(
        `UPDATE notifications SET recipient = '', detail = NULL,
           status = CASE WHEN status = 'sent' THEN 'sent' ELSE 'dead' END,
           last_error = NULL, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE order_id IN ${mine} OR lower(recipient) IN (SELECT value FROM json_each(?2))`,
      )
      .bind(userId, list),
    db
      .prepare(
        "DELETE FROM contact_messages WHERE lower(email) IN (SELECT value FROM json_each(?1)) OR phone IN (SELECT value FROM json_each(?1))",
      )
      .bind(list),
    db.prepare("DELETE FROM dev_outbox WHERE lower(recipient) IN (SELECT value FROM json_each(?1))").bind(list),
    // Keys written as text from the id (a bound number would read as "5.0" in a concatenation).
    db.prepare("DELETE FROM staff_notes WHERE subject = ?1").bind(`user:${userId}`),
    // A note's audit line copies its text; the line stays (who noted when), its text goes.
    db
      .prepare(
        "UPDATE audit_log SET after_json = NULL WHERE action = 'note.add' AND entity = 'customer' AND entity_id = ?1",
      )
      .bind(String(userId)),
    db
      .prepare(
        `UPDATE promo_redemptions SET email = '', phone = NULL, guest_id = NULL
         WHERE user_id = ?1 OR order_id IN ${mine}`,
      )
      .bind(userId),
    db
      .prepare(
        `UPDATE return_items SET note = NULL WHERE return_id IN (SELECT id FROM returns WHERE order_id IN ${mine})`,
      )
      .bind(userId),
    db
      .prepare(`UPDATE bank_transfers SET iban = '', holder = '' WHERE order_id IN ${mine} AND status = 'sent'`)
      .bind(userId),
    db
      .prepare(
        `UPDATE orders SET email = '', phone = NULL, address = ${BLANK_ADDRESS}, refund_iban = NULL,
           refund_iban_name = NULL, guest_id = NULL, network_hash = NULL, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE user_id = ?1`,
      )
      .bind(userId),
  ];
  for (const table of await unlistedUserTables(db))
    statements.push(db.prepare(`DELETE FROM "${table}" WHERE user_id = ?1`).bind(userId));
  statements.push(
    db
      .prepare(`UPDATE users SET ${sets}, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?1`)
      .bind(userId),
    db
      .prepare("INSERT INTO erasure_log (user_id, requested_by, staff_user_id, reason) VALUES (?, ?, ?, ?)")
      .bind(userId, who.by, who.by === "staff" ? who.staffUserId : null, who.by === "staff" ? who.reason : null),
  );
  await db.batch(statements);

  await forgetPhotos(
    db,
    env.MEDIA,
    photos.flatMap((ph) => [ph.key, ph.thumb_key ?? ph.key]),
  );
  await forgetSessions(env.KV, userId);
}

/**
 * Removes the own server's sessions of the account from KV (worker/api/session.ts keeps the
 * name and email beside the token under a random id): the token is already gone, so each would
 * end at its next check anyway; this removes the copy now. With a separate backend
 * (BACKEND_URL) its KV is not this one, and the sessions end at their next check.
 */
async function forgetSessions(kv: KVNamespace, userId: number): Promise<void> {
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<unknown, string> = await kv.list({ prefix: "session:", cursor });
    for (const key of page.keys) {
      const stored = await kv.get<{ user?: { id?: number } }>(key.name, "json").catch(() => null);
      if (stored?.user?.id === userId) await kv.delete(key.name);
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
}

/** Erasures on record for an account (for staff: proof a request was carried out). */
export async function erasuresOf(db: D1Database, userId: number) {
  const { results } = await db
    .prepare("SELECT requested_by, created_at FROM erasure_log WHERE user_id = ? ORDER BY id")
    .bind(userId)
    .all<{ requested_by: string; created_at: string }>();
  return results;
}
