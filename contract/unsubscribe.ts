// Messages to shoppers that are not an order's news, and the one-click way to stop each kind.
// Part of the contract between the storefront and the backend: both sides import it.
import * as v from "valibot";
import type { InputMessages } from "./inputs";

/**
 * The kinds of message a shopper gets outside their orders: an invitation to review what they
 * bought, the decision on their review, an answer to their question, a product back in stock, a cart they left.
 * Each can be stopped on its own from the link in the message.
 */
export const SHOPPER_TOPICS = [
  "review_invitation",
  "review_decision",
  "question_answered",
  "stock_alert",
  "cart_reminder",
] as const;
export type ShopperTopic = (typeof SHOPPER_TOPICS)[number];

/** POST: stop one topic for the address the token names → `{ data: { topic } }`. */
export const UNSUBSCRIBE_PATH = "/unsubscribe";

/** The link's token: the address's keyed hash and a signature over it and the topic, both hex. */
const TOKEN = /^[0-9a-f]{64}\.[0-9a-f]{64}$/;

/** POST UNSUBSCRIBE_PATH's body, as the link's query carries it. */
export function unsubscribeInput(m: InputMessages) {
  return v.object({
    topic: v.picklist(SHOPPER_TOPICS, m.invalid("topic")),
    token: v.pipe(v.string(m.required("token")), v.regex(TOKEN, m.invalid("token"))),
  });
}
