import type { Env, Lang } from "../../env";
import { DELIVERY_COUNTRIES, isDeliveryPhone } from "../../../../contract/delivery";
import { shopDay, shopMoment } from "../../../../contract/shop-time";
import { publicOrigin } from "../../../../contract/server/public-origin";
import { trackingUrl } from "../orders/carriers";
import { say } from "../../../../contract/server/i18n";
import { msg } from "../../messages";
import { returnAddressOf } from "../orders/invoices";
import { loadSettings, messageWording } from "../shared/settings";
import { renderOrderMessage, renderStaffAlert, type OrderTemplate, type RenderedMessage } from "./mail";
import { messengerFor, type Messenger } from "./messenger";
import { parseAddress } from "../orders/orders";
import { STAFF_ALERT_KINDS, type OrderMessageKind, type StaffAlertKind } from "./types";
import { openedByLink, signOrderAccess } from "../orders/order-links";
import { LINK_FRAGMENT_KEY } from "../../../../contract/order-access";
import { sendTemplate, whatsappConfig, whatsappNumber, WhatsAppSendError, type WhatsAppEnv } from "./whatsapp";
import { ORDER_TEMPLATES } from "./whatsapp-templates";
import { settleWhatsApp } from "./whatsapp-webhook";
import { flushNotifications } from "./notification-queue";

export { flushNotifications };

/**
 * Order messages: what an order event owes its shopper, by email and, where the order
 * has a phone of a country the shop delivers to (contract/delivery.ts), by SMS, in the language
 * they checked out in.
 *
 * The path of a message:
 * 1. `notifyStatements` — rows in `notifications`, run IN THE SAME `db.batch` as the event they
 *    announce (a transactional outbox: no event without its message, no message without its
 *    event). The key (order, kind, reference, channel) makes a repeated event a no-op.
 * 2. `flushNotifications` — after the batch, the new rows go to the NOTIFICATIONS queue. It never
 *    throws: a queue that is down costs the shopper nothing, and the cron sends what was left.
 * 3. The queue consumer (jobs.ts → `deliverNotification`) claims the row, renders it from
 *    the message catalogue (or the owner's wording in the store's settings) and hands it to the Messenger; a failure is retried by the queue with a
 *    growing delay and, after the last retry, dead-lettered (status `dead`).
 * 4. The cron (`sweepNotifications`) re-sends rows whose queue message was lost, and gives a dead
 *    message a fresh round of retries an hour later, at most twice.
 */

/**
 * What must hold of the order for a message of each kind to be owed, checked in the insert
 * itself: in a batch whose conditional update changed nothing (a payment that lost a race, a
 * hold another request already released), no message is written.
 */
const OWED_WHEN: Record<OrderMessageKind, string> = {
  placed: "1",
  // A cash-on-delivery order is owed its "confirmed" message once its code confirmed it.
  paid: "(paid_at IS NOT NULL OR (payment_method = 'cod' AND status = 'processing'))",
  shipped: "shipped_at IS NOT NULL",
  // A parcel's own steps (services/shipping/shipments.ts): owed as the carrier reports them.
  out_for_delivery: "status IN ('processing', 'shipped')",
  delivery_attempted: "status IN ('processing', 'shipped')",
  delivered: "delivered_at IS NOT NULL",
  cancelled: "status = 'cancelled'",
  refunded: "refunded > 0",
  return_received: "1",
  return_requested: "1",
  return_approved: "1",
  return_rejected: "1",
};

const ALERT_COLUMN: Record<StaffAlertKind, string> = { staff_order: "alert_orders", staff_return: "alert_returns" };
/** As OWED_WHEN: a payment that lost its race owes no alert. */
const ALERT_WHEN: Record<StaffAlertKind, string> = {
  staff_order: "(o.paid_at IS NOT NULL OR (o.payment_method = 'cod' AND o.status = 'processing'))",
  staff_return: "1",
};

/**
 * The statement that owes each staff member who asked for it an email about the order (a new paid
 * order, a new return request), in the language they chose, run in the event's own batch like the
 * shopper's messages. Only a seat with a pinned email gets one: the address the console trusts.
 */
export function staffAlertStatement(
  db: D1Database,
  order: { id: number },
  kind: StaffAlertKind,
  ref: string | null = null,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT OR IGNORE INTO notifications (key, order_id, kind, channel, recipient, lang)
       SELECT o.number || ':' || ?2 || ?3 || ':staff' || s.user_id || ':email', o.id, ?2, 'email', s.email, s.alert_lang
       FROM orders o JOIN staff s ON s.${ALERT_COLUMN[kind]} = 1 AND s.email IS NOT NULL
       WHERE o.id = ?1 AND ${ALERT_WHEN[kind]}`,
    )
    .bind(order.id, kind, ref ? `:${ref}` : "");
}

/**
 * The statements that owe the order's shopper a `kind` message: an email, and an SMS when the
 * order has a phone of a delivery country (`deliveryPhoneSql`). `ref` tells apart events of one kind (each refund, each return);
 * `detail` carries what the message says beyond the order (e.g. `{ amount }` in halalas).
 */
export function notifyStatements(
  db: D1Database,
  order: { id: number } | { number: string },
  kind: OrderMessageKind,
  opts: { ref?: string | null; detail?: Record<string, unknown> | null } = {},
): D1PreparedStatement[] {
  const suffix = opts.ref ? `:${opts.ref}` : "";
  const detail = opts.detail ? JSON.stringify(opts.detail) : null;
  const insert = (channel: "email" | "sms", recipient: string, extra = "", via = "NULL") =>
    db
      .prepare(
        `INSERT OR IGNORE INTO notifications (key, order_id, kind, channel, recipient, lang, detail, via)
         SELECT number || ':' || ?2 || ?3 || ':${channel}', id, ?2, '${channel}', ${recipient}, lang, ?4, ${via}
         FROM orders WHERE ${"id" in order ? "id" : "number"} = ?1 AND ${OWED_WHEN[kind]}${extra}`,
      )
      .bind("id" in order ? order.id : order.number, kind, suffix, detail);
  // An account that chose WhatsApp (users.message_channel) is written to on its own phone, the
  // number it opted in with; everyone else by SMS to the order's phone. One phone row either way.
  const whatsapp = `(SELECT u.phone FROM users u WHERE u.id = orders.user_id AND u.message_channel = 'whatsapp')`;
  const phone = `COALESCE(${whatsapp}, NULLIF(TRIM(COALESCE(phone, json_extract(address, '$.phone'), '')), ''))`;
  return [
    insert("email", "email"),
    insert(
      "sms",
      phone,
      ` AND ${phone} IS NOT NULL AND ${deliveryPhoneSql(phone)}`,
      `CASE WHEN ${whatsapp} IS NOT NULL THEN 'whatsapp' END`,
    ),
  ];
}

/**
 * `isDeliveryPhone` (contract/delivery.ts) as SQL over a stored number: `+` or `00` and the code
 * of a country the shop delivers to, or the home country's national form (0 then not 0). A
 * number of any other country is owed no SMS, only the email.
 */
export function deliveryPhoneSql(expr: string): string {
  const forms = [
    ...DELIVERY_COUNTRIES.flatMap((c) => [`+${c.callingCode}[0-9]*`, `00${c.callingCode}[0-9]*`]),
    "0[1-9]*",
  ];
  return `(${forms.map((form) => `${expr} GLOB '${form}'`).join(" OR ")})`;
}

const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
/** The error of an SMS row whose number is not of a delivery country: never sent, never retried. */
const NOT_DELIVERY_COUNTRY = "not_delivery_country";
/** A claim older than this is a consumer that died mid-send: the row may be claimed again. */
const CLAIM_STALE_MINUTES = 5;

interface NotificationRow {
  id: number;
  key: string;
  order_id: number;
  kind: OrderMessageKind | StaffAlertKind;
  channel: "email" | "sms";
  recipient: string;
  lang: Lang;
  detail: string | null;
  status: "queued" | "sending" | "sent" | "dead";
  attempts: number;
  /** The phone row's way: "whatsapp" (the account chose it), "sms" after a fall-back, null plain. */
  via: "sms" | "whatsapp" | null;
}

interface MessageOrder {
  number: string;
  total: number;
  currency: string;
  address: string;
  carrier: string | null;
  tracking_number: string | null;
  reserved_until: string | null;
  delivered_at: string | null;
  paid_at: string | null;
  site_origin: string | null;
  user_id: number | null;
}

const MONEY_TAGS: Record<Lang, string> = { en: "en-US", ar: "ar-SA-u-nu-latn" };

/** Money as the storefront writes it (app/lib/money.ts): Intl, Latin digits in Arabic. */
export function formatAmount(minor: number, currency: string, lang: Lang): string {
  const f = new Intl.NumberFormat(MONEY_TAGS[lang], { style: "currency", currency });
  return f.format(minor / 10 ** (f.resolvedOptions().maximumFractionDigits ?? 2));
}

function formatMoment(iso: string | null, lang: Lang, withTime: boolean): string {
  if (!iso) return "";
  return withTime ? shopMoment(iso, lang) : shopDay(iso, lang);
}

/**
 * Where the links of a message point: the shop's public origin (lib/public-origin.ts). In
 * production that is PUBLIC_ORIGIN alone, whatever the order row says; in development and test
 * without it, the worker's own URL the order was placed through.
 *
 * A guest order's links to its page and documents carry a signed token for that order
 * (order-links.ts) in their fragment, so they open on any device without the tab that placed it.
 * An account's order links plainly: its page asks its owner to sign in and comes back, and a
 * forwarded message opens nothing of an account.
 */
async function linksOf(
  env: Pick<Env, "PUBLIC_ORIGIN" | "ENVIRONMENT" | "ORDER_LINK_SECRET">,
  order: MessageOrder,
  lang: Lang,
) {
  const origin = publicOrigin(env, order.site_origin);
  const number = encodeURIComponent(order.number);
  const access = openedByLink(order)
    ? `#${LINK_FRAGMENT_KEY}=${await signOrderAccess(env, order.number, "message")}`
    : "";
  const documentsBase = `${origin}/${lang}/order/${number}`;
  return {
    orderUrl: `${origin}/${lang}/order/checkout/status?order=${number}${access}`,
    invoiceUrl: `${documentsBase}/invoice${access}`,
    creditNoteUrl: (id: number) => `${documentsBase}/credit-note/${id}${access}`,
    trackUrl: `${origin}/${lang}/track-order`,
  };
}

const isStaffAlert = (kind: string): kind is StaffAlertKind => (STAFF_ALERT_KINDS as readonly string[]).includes(kind);

/**
 * The template of a row: a cancel reads differently when the hold ran out, and when nothing was
 * ever paid (no refund follows, so the message must not talk of one); a COD order's confirmation
 * is its own message.
 */
function templateOf(kind: OrderMessageKind, detail: Record<string, unknown>, order: MessageOrder): OrderTemplate {
  // A cash-on-delivery order is "confirmed" (by its code), not paid: the cash comes at the door.
  if (kind === "paid" && detail.cod === true) return "cod_confirmed";
  if (kind !== "cancelled") return kind;
  if (detail.reason === "expired") return "expired";
  return order.paid_at ? "cancelled" : "cancelled_unpaid";
}

/** Renders a claimed row from its order, in the shopper's language. */
async function renderNotification(
  env: Pick<Env, "DB" | "ENVIRONMENT" | "PUBLIC_ORIGIN" | "RETURN_WINDOW_DAYS" | "ORDER_LINK_SECRET">,
  row: NotificationRow,
): Promise<{ content: RenderedMessage; params: Record<string, string> } | null> {
  const order = await env.DB.prepare(
    `SELECT number, total, currency, address, carrier, tracking_number, reserved_until, delivered_at, paid_at, site_origin, user_id
     FROM orders WHERE id = ?`,
  )
    .bind(row.order_id)
    .first<MessageOrder>();
  if (!order) return null;
  const detail = (row.detail ? JSON.parse(row.detail) : {}) as Record<string, unknown>;
  const lang = row.lang;
  const links = await linksOf(env, order, lang);
  if (isStaffAlert(row.kind))
    return {
      content: renderStaffAlert(lang, row.kind, {
        number: order.number,
        total: formatAmount(order.total, order.currency, lang),
        url: `${publicOrigin(env, order.site_origin)}/${lang}/admin/orders/${encodeURIComponent(order.number)}`,
      }),
      params: {},
    };
  const kind = row.kind;
  // What the shopper typed: the greeting keeps it only when it reads as a name (mail.ts).
  const name = parseAddress(order.address).name || "";
  const settings = await loadSettings(env);
  const returnDays = settings.returns.window_days;
  // A refund's message links its credit note (issued in the refund's own batch).
  const creditNote =
    row.kind === "refunded" && typeof detail.refund_id === "string"
      ? await env.DB.prepare("SELECT id FROM tax_documents WHERE refund_id = ? AND kind = 'credit_note'")
          .bind(detail.refund_id)
          .first<number>("id")
      : null;
  const returnUntil = order.delivered_at
    ? new Date(Date.parse(order.delivered_at) + returnDays * 86_400_000).toISOString()
    : null;
  const returnItems =
    row.kind.startsWith("return_") && typeof detail.return_id === "string"
      ? await returnItemsText(env.DB, detail.return_id, lang)
      : "";
  const template = templateOf(kind, detail, order);
  const params = {
    name,
    number: order.number,
    total: formatAmount(order.total, order.currency, lang),
    amount: formatAmount(Number(detail.amount ?? 0), order.currency, lang),
    until: formatMoment(order.reserved_until, lang, true),
    carrier: order.carrier ?? "",
    // A parcel's message names its own waybill; the order's "shipped" its first.
    tracking: typeof detail.waybill === "string" ? detail.waybill : (order.tracking_number ?? ""),
    trackingUrl: trackingUrl(order.carrier, order.tracking_number) ?? links.trackUrl,
    returnUntil: formatMoment(returnUntil, lang, false),
    orderUrl: links.orderUrl,
    invoiceUrl: links.invoiceUrl,
    creditNoteUrl: creditNote ? links.creditNoteUrl(creditNote) : links.orderUrl,
    items: returnItems,
    reason: typeof detail.note === "string" && detail.note.trim() ? detail.note.trim() : say(lang, NO_REASON),
    sendTo: returnAddressOf(settings.seller, lang) ?? say(lang, ADDRESS_TO_FOLLOW),
  };
  const content = renderOrderMessage(lang, template, row.channel, params, {
    wording: messageWording(settings, template, lang),
    signature: lang === "ar" ? settings.store.name_ar : settings.store.name_en,
  });
  return { content, params };
}

/** A rejection staff gave no reason for. */
const NO_REASON = msg("notifications.noReason");
/** An approved return when the shop has no address configured: the shop tells them. */
const ADDRESS_TO_FOLLOW = msg("notifications.addressToFollow");

/** The lines of a return as a message lists them: "2 × USB-C cable, 1 × Power bank". */
async function returnItemsText(db: D1Database, returnId: string, lang: Lang): Promise<string> {
  const { results } = await db
    .prepare(
      `SELECT ri.quantity, oi.name_en, oi.name_ar FROM return_items ri JOIN order_items oi ON oi.id = ri.order_item_id
       WHERE ri.return_id = ? ORDER BY ri.id`,
    )
    .bind(returnId)
    .all<{ quantity: number; name_en: string; name_ar: string }>();
  const names = results.map((r) => `${r.quantity} × ${(lang === "ar" ? r.name_ar : r.name_en) || r.name_en}`);
  return new Intl.ListFormat(lang, { type: "conjunction" }).format(names);
}

export type DeliveryOutcome = "sent" | "skipped";

/**
 * Sends one queued message. Claims the row first (queued → sending, or a stale claim), so a
 * redelivered queue message or a concurrent consumer sends nothing twice; a sent or dead row is
 * skipped. A provider failure puts the row back to `queued` with its error and throws, for the
 * queue to retry.
 */
export async function deliverNotification(
  env: Pick<
    Env,
    | "DB"
    | "ENVIRONMENT"
    | "MESSENGER"
    | "MESSENGER_URL"
    | "MESSENGER_KEY"
    | "PUBLIC_ORIGIN"
    | "RETURN_WINDOW_DAYS"
    | "ORDER_LINK_SECRET"
  > &
    WhatsAppEnv,
  id: number,
  messenger: Messenger = messengerFor(env),
): Promise<DeliveryOutcome> {
  const row = await env.DB.prepare(
    `UPDATE notifications SET status = 'sending', claimed_at = ${NOW}, attempts = attempts + 1, updated_at = ${NOW}
     WHERE id = ?1 AND (status = 'queued' OR (status = 'sending' AND claimed_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${CLAIM_STALE_MINUTES} minutes')))
     RETURNING *`,
  )
    .bind(id)
    .first<NotificationRow>();
  if (!row) return "skipped";
  // A row written before the rule, or by hand: no SMS outside the delivery countries.
  if (row.channel === "sms" && !isDeliveryPhone(row.recipient)) {
    await env.DB.prepare(
      `UPDATE notifications SET status = 'dead', last_error = '${NOT_DELIVERY_COUNTRY}', updated_at = ${NOW} WHERE id = ?`,
    )
      .bind(id)
      .run();
    return "skipped";
  }
  try {
    const rendered = await renderNotification(env, row);
    if (!rendered) {
      await env.DB.prepare(
        `UPDATE notifications SET status = 'dead', last_error = 'order_gone', updated_at = ${NOW} WHERE id = ?`,
      )
        .bind(id)
        .run();
      return "skipped";
    }
    const { content, params } = rendered;
    if (row.via === "whatsapp" && (await sentByWhatsApp(env, row, params))) return "sent";
    await messenger.send({
      to: row.recipient,
      channel: row.channel,
      purpose: `order.${row.kind}`,
      code: "",
      lang: row.lang,
      content,
    });
  } catch (err) {
    await env.DB.prepare(
      `UPDATE notifications SET status = 'queued', last_error = ?, updated_at = ${NOW} WHERE id = ? AND status = 'sending'`,
    )
      .bind(String(err).slice(0, 500), id)
      .run();
    throw err;
  }
  await env.DB.prepare(
    `UPDATE notifications SET status = 'sent', sent_at = ${NOW}, last_error = NULL, updated_at = ${NOW} WHERE id = ?`,
  )
    .bind(id)
    .run();
  return "sent";
}

/**
 * A phone row of an account that chose WhatsApp: sent as the kind's approved template
 * (whatsapp-templates.ts) with its variables from the same parameters as the SMS. True when
 * WhatsApp accepted it (the row is then sent, with its wamid; the webhook tells the rest). On
 * an error answer, no answer, or WhatsApp being off, the row turns into an SMS for good (`via`
 * 'sms', the error kept) and false is returned: the caller sends the SMS in this same claim, and
 * a retry of the queue sends the SMS again, never WhatsApp, so the message never goes both ways.
 */
async function sentByWhatsApp(
  env: WhatsAppEnv,
  row: NotificationRow,
  params: Record<string, string>,
): Promise<boolean> {
  const config = whatsappConfig(env);
  const to = whatsappNumber(row.recipient);
  let error = "whatsapp_off";
  if (config && to && !isStaffAlert(row.kind)) {
    const template = ORDER_TEMPLATES[row.kind];
    try {
      const sent = await sendTemplate(
        config,
        to,
        template,
        row.lang,
        template.variables.map((name) => params[name] ?? ""),
      );
      await env.DB.prepare(
        `UPDATE notifications SET status = 'sent', sent_at = ${NOW}, last_error = NULL, provider_id = ?,
           provider_status = COALESCE(provider_status, 'accepted'), updated_at = ${NOW} WHERE id = ?`,
      )
        .bind(sent.wamid, row.id)
        .run();
      // Statuses the webhook recorded before this answer, a failure among them, apply now.
      await settleWhatsApp(env, sent.wamid);
      return true;
    } catch (err) {
      error =
        err instanceof WhatsAppSendError
          ? JSON.stringify([{ code: err.error.code, title: err.error.message }])
          : String(err);
    }
  }
  console.warn(
    JSON.stringify({ level: "warn", event: "whatsapp.fallback", notification: row.id, error: error.slice(0, 300) }),
  );
  await env.DB.prepare(
    `UPDATE notifications SET via = 'sms', provider_error = ?, fell_back_at = ${NOW}, updated_at = ${NOW} WHERE id = ?`,
  )
    .bind(error.slice(0, 500), row.id)
    .run();
  return false;
}

/** The dead-letter queue's consumer: the queue gave up on this message. */
export async function markNotificationDead(db: D1Database, id: number): Promise<void> {
  await db
    .prepare(
      `UPDATE notifications SET status = 'dead', updated_at = ${NOW} WHERE id = ? AND status IN ('queued', 'sending')`,
    )
    .bind(id)
    .run();
}

/**
 * A manager sends a dead message again (the console's order page): the statement puts it back in
 * line with a fresh set of retries, to run in one batch with its audit line, then
 * `flushNotifications`. Null when the message is not the order's or not dead.
 */
export async function resendStatement(
  db: D1Database,
  orderId: number,
  id: number,
): Promise<D1PreparedStatement | null> {
  const dead = await db
    .prepare("SELECT 1 AS dead FROM notifications WHERE id = ? AND order_id = ? AND status = 'dead'")
    .bind(id, orderId)
    .first<number>("dead");
  if (!dead) return null;
  return db
    .prepare(
      `UPDATE notifications SET status = 'queued', enqueued_at = NULL, attempts = 0, updated_at = ${NOW}
       WHERE id = ? AND order_id = ? AND status = 'dead'`,
    )
    .bind(id, orderId);
}

/** A dead message gets a fresh round of the queue's retries this long after it died, at most twice. */
const DEAD_ROUND_MINUTES = 60;
const MAX_ROUNDS = 2;
/** A queued message whose queue message has not been consumed in this time is sent again. */
const LOST_MINUTES = 10;

/**
 * The cron's part (worker/backend/jobs.ts): messages whose queue message was lost (never enqueued, or
 * enqueued long ago and still not sent, or claimed by a consumer that died) go to the queue
 * again, and a dead message gets another round an hour later, at most twice.
 */
export async function sweepNotifications(env: Pick<Env, "DB" | "NOTIFICATIONS">): Promise<number> {
  const minutesAgo = (m: number) => `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${m} minutes')`;
  await env.DB.batch([
    env.DB.prepare(
      `UPDATE notifications SET status = 'queued', enqueued_at = NULL, updated_at = ${NOW}
       WHERE (status = 'queued' AND enqueued_at < ${minutesAgo(LOST_MINUTES)})
          OR (status = 'sending' AND claimed_at < ${minutesAgo(LOST_MINUTES)})`,
    ),
    env.DB.prepare(
      `UPDATE notifications SET status = 'queued', enqueued_at = NULL, rounds = rounds + 1, updated_at = ${NOW}
       WHERE status = 'dead' AND rounds < ${MAX_ROUNDS} AND last_error IS NOT 'order_gone' AND last_error IS NOT '${NOT_DELIVERY_COUNTRY}'
         AND updated_at < ${minutesAgo(DEAD_ROUND_MINUTES)}`,
    ),
  ]);
  let sent = 0;
  for (let i = 0; i < 20; i++) {
    const n = await flushNotifications(env);
    sent += n;
    if (n < 50) break;
  }
  return sent;
}
