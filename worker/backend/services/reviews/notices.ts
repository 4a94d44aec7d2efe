import { isDeliveryPhone } from "../../../../contract/delivery";
import { publicOrigin } from "../../../../contract/server/public-origin";
import type { Env, Lang } from "../../env";
import { shopperMessageStatement } from "../messages/shopper-messages";
import type { ReviewRow } from "./rows";

/**
 * What a review's author is told (the shared shopper outbox, services/messages/shopper-messages.ts):
 * a `review_decision` when staff reject their review, with the reason staff wrote and a link to
 * change it and send it again. In the language of the order that made them a verified buyer (the
 * language they shop in), else the review's. By email; an account without one gets it by SMS
 * when its phone is of a country the shop delivers to. The key names the review and the state the
 * rejection moved it from, so a repeated click sends nothing twice and a later rejection of an
 * edited review is told again.
 */

interface Author {
  name: string;
  email: string | null;
  phone: string | null;
  order_lang: Lang | null;
  site_origin: string | null;
  product_slug: string;
  name_en: string;
  name_ar: string;
}

export async function decisionStatements(
  env: Pick<Env, "DB" | "PUBLIC_ORIGIN" | "ENVIRONMENT">,
  review: Pick<ReviewRow, "id" | "user_id" | "order_id" | "product_id" | "lang" | "updated_at">,
  reason: string,
): Promise<D1PreparedStatement[]> {
  const db = env.DB;
  const author = await db
    .prepare(
      `SELECT u.name, u.email, u.phone, o.lang AS order_lang, o.site_origin, p.slug AS product_slug, p.name_en, p.name_ar
       FROM users u JOIN products p ON p.id = ?3 LEFT JOIN orders o ON o.id = ?2 WHERE u.id = ?1`,
    )
    .bind(review.user_id, review.order_id, review.product_id)
    .first<Author>();
  if (!author) return [];
  const lang = author.order_lang ?? review.lang;
  const channel = author.email ? "email" : author.phone && isDeliveryPhone(author.phone) ? "sms" : null;
  if (!channel) return [];
  let origin: string;
  try {
    origin = publicOrigin(env, author.site_origin);
  } catch (err) {
    // Only where PUBLIC_ORIGIN may be unset (development, test) and the order is gone: no link to send.
    console.warn(
      JSON.stringify({ level: "warn", event: "reviews.decision_unsent", review: review.id, error: String(err) }),
    );
    return [];
  }
  return [
    shopperMessageStatement(db, {
      key: `review_decision:${review.id}:${review.updated_at}:${channel}`,
      topic: "review_decision",
      channel,
      recipient: channel === "email" ? author.email! : author.phone!,
      lang,
      params: {
        name: author.name,
        product: lang === "ar" ? author.name_ar || author.name_en : author.name_en,
        reason,
        reviewUrl: `${origin}/${lang}/reviews/write?product=${encodeURIComponent(author.product_slug)}`,
      },
      siteOrigin: author.site_origin,
    }),
  ];
}
