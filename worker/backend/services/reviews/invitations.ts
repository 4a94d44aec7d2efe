import { deliveryE164 } from "../../../../contract/delivery";
import { publicOrigin } from "../../../../contract/server/public-origin";
import type { Env, Lang } from "../../env";
import { shopperMessageStatement } from "../messages/shopper-messages";
import { parseAddress } from "../orders/orders";
import { loadSettings } from "../shared/settings";

/**
 * Review invitations: `invitation_days` after an order with an account was delivered, its buyer is
 * invited once to review what it held (the shared shopper outbox: a `review_invitation` by email,
 * and by SMS when the order has a phone of a country the shop texts, as order messages choose, in
 * the order's language), linking to `/{lang}/reviews/write?order={number}`, which asks them to
 * sign in. An order whose products the buyer has all reviewed (or that holds none still shown)
 * gets nothing. The message carries the topic's stop link; one who stopped it gets none.
 *
 * Written by the cron, not at delivery with a due time: the rule then reads the settings and the
 * reviews as they are when the message falls due (invitations turned off, or a buyer who reviewed
 * everything meanwhile, owe nothing), and no delivery path (the console, a carrier's webhook, a
 * courier's report) has to remember it. Each minute it reads, in bounded rounds, the orders
 * delivered at least `invitation_days` ago that it has not dealt with (`review_invitations`, one
 * row each whatever the outcome), from the newest it dealt with less a day (so its reading stays
 * small however many orders the shop has delivered), and never from more than CATCH_UP_DAYS
 * before they fell due: turning invitations on does not write to every buyer of the past.
 */

const DAY_MS = 86_400_000;
/** How late an invitation may still go out (the cron was stopped, invitations were just turned on). */
export const CATCH_UP_DAYS = 7;
const ROUND = 50;
const ROUNDS = 4;

interface DueOrder {
  id: number;
  number: string;
  user_id: number;
  lang: Lang;
  email: string;
  phone: string | null;
  address: string;
  site_origin: string | null;
  delivered_at: string;
  /** The order's products still shown that the buyer has not reviewed. */
  unreviewed: number;
}

/** The cron's part: invites the buyers of the orders now due; answers how many orders it dealt with. */
export async function inviteReviewers(
  env: Pick<Env, "DB" | "PUBLIC_ORIGIN" | "ENVIRONMENT"> & Partial<Env>,
): Promise<number> {
  const days = (await loadSettings(env)).reviews.invitation_days;
  if (days <= 0) return 0;
  const db = env.DB;
  const now = Date.now();
  const dueBy = new Date(now - days * DAY_MS).toISOString();
  const newestDone = await db
    .prepare("SELECT MAX(delivered_at) AS at FROM review_invitations")
    .first<string | null>("at");
  const floor = Math.max(now - (days + CATCH_UP_DAYS) * DAY_MS, newestDone ? Date.parse(newestDone) - DAY_MS : 0);
  const from = new Date(floor).toISOString();
  let dealt = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const { results } = await db
      .prepare(
        `SELECT o.id, o.number, o.user_id, o.lang, o.email, o.phone, o.address, o.site_origin, o.delivered_at,
           (SELECT COUNT(*) FROM products p WHERE p.active = 1
              AND p.id IN (SELECT product_id FROM order_items WHERE order_id = o.id)
              AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.product_id = p.id AND r.user_id = o.user_id)) AS unreviewed
         FROM orders o
         WHERE o.delivered_at > ?1 AND o.delivered_at <= ?2 AND o.user_id IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM review_invitations i WHERE i.order_id = o.id)
         ORDER BY o.delivered_at, o.id LIMIT ${ROUND}`,
      )
      .bind(from, dueBy)
      .all<DueOrder>();
    if (!results.length) break;
    const statements = results.flatMap((order) => {
      const messages = order.unreviewed > 0 ? invitationStatements(env, order) : [];
      // An invitation that could not be written (no link to give) is tried again next minute.
      if (order.unreviewed > 0 && !messages.length) return [];
      return [
        ...messages,
        db
          .prepare("INSERT OR IGNORE INTO review_invitations (order_id, outcome, delivered_at) VALUES (?, ?, ?)")
          .bind(order.id, messages.length ? "invited" : "reviewed", order.delivered_at),
      ];
    });
    if (!statements.length) break;
    await db.batch(statements);
    dealt += results.length;
    if (results.length < ROUND) break;
  }
  return dealt;
}

/** An order's invitation: by email, and by SMS to a phone of a delivery country. */
function invitationStatements(
  env: Pick<Env, "DB" | "PUBLIC_ORIGIN" | "ENVIRONMENT">,
  order: DueOrder,
): D1PreparedStatement[] {
  let origin: string;
  try {
    origin = publicOrigin(env, order.site_origin);
  } catch (err) {
    // Only where PUBLIC_ORIGIN may be unset (development, test) and the order kept no origin.
    console.warn(
      JSON.stringify({ level: "warn", event: "reviews.invitation_unsent", order: order.number, error: String(err) }),
    );
    return [];
  }
  const address = parseAddress(order.address);
  const phone = (order.phone ?? address.phone ?? "").trim();
  const sms = phone ? deliveryE164(phone) : null;
  const params = {
    name: address.name || "",
    number: order.number,
    reviewUrl: `${origin}/${order.lang}/reviews/write?order=${encodeURIComponent(order.number)}`,
  };
  const message = (channel: "email" | "sms", recipient: string) =>
    shopperMessageStatement(env.DB, {
      key: `review_invitation:${order.id}:${channel}`,
      topic: "review_invitation",
      channel,
      recipient,
      lang: order.lang,
      params,
      siteOrigin: order.site_origin,
    });
  return [message("email", order.email), ...(sms ? [message("sms", sms)] : [])];
}
