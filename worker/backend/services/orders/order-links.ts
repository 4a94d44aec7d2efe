import type { Env } from "../../env";
import { ORDER_ACCESS_TOKEN, type OrderAccessGrant } from "../../../../contract/order-access";
import { hmacHex, verifyHmac } from "../payments/providers/hmac";

/**
 * Signed order access (stateless: nothing is stored). A token is `<expiry>.<HMAC-SHA256>` keyed
 * by ORDER_LINK_SECRET over the purpose, the order number and the expiry, so it opens one order,
 * for one purpose, until it expires; changing any of the three, or the signature, refuses it.
 *
 * - `message`: in the links of a guest order's email and SMS (MESSAGE_LINK_SECONDS). The page
 *   trades it once for a `tab` grant (POST /orders/{number}/access) and never sends it again.
 * - `tab`: what a tab sends in ORDER_ACCESS_HEADER on that order's calls (TAB_GRANT_SECONDS);
 *   also what a successful tracking lookup hands out.
 *
 * A message link is refused as a tab grant and a tab grant as a message link: a grant read from a
 * tab's storage does not become a month-long link, and a link is not sent on every call.
 */
export type OrderAccessPurpose = "message" | "tab";

/** A message link lasts a month from sending: long enough for delivery and the return window after it. */
export const MESSAGE_LINK_SECONDS = 60 * 60 * 24 * 30;
/** A tab's grant lasts a working day; the link or tracking gives a new one. */
export const TAB_GRANT_SECONDS = 60 * 60 * 12;

const DEV_SECRET = "development-order-link-secret";

/**
 * The signing key. Fails closed outside development and test, as the pepper does: without it no
 * link is signed (a message is retried, never sent with a link anyone could make) and none opens.
 */
export function orderLinkSecret(env: Pick<Env, "ORDER_LINK_SECRET" | "ENVIRONMENT">): string {
  if (env.ORDER_LINK_SECRET) return env.ORDER_LINK_SECRET;
  if (env.ENVIRONMENT === "development" || env.ENVIRONMENT === "test") return DEV_SECRET;
  throw new Error("ORDER_LINK_SECRET is not set: set it with `wrangler secret put ORDER_LINK_SECRET`.");
}

const signed = (purpose: OrderAccessPurpose, number: string, expires: number) =>
  `order-access\n${purpose}\n${number.trim().toUpperCase()}\n${expires}`;

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A token for `number` and `purpose`, valid for `seconds` from now (or until `expires`, Unix seconds). */
export async function signOrderAccess(
  env: Pick<Env, "ORDER_LINK_SECRET" | "ENVIRONMENT">,
  number: string,
  purpose: OrderAccessPurpose,
  expires: number = nowSeconds() + (purpose === "message" ? MESSAGE_LINK_SECONDS : TAB_GRANT_SECONDS),
): Promise<string> {
  return `${expires}.${await hmacHex(orderLinkSecret(env), signed(purpose, number, expires))}`;
}

export type OrderAccessCheck = { ok: true; expires: number } | { ok: false; reason: "invalid" | "expired" };

/** Whether `token` opens `number` for `purpose` now. The signature is checked in constant time, before the expiry. */
export async function verifyOrderAccess(
  env: Pick<Env, "ORDER_LINK_SECRET" | "ENVIRONMENT">,
  number: string,
  purpose: OrderAccessPurpose,
  token: string | null | undefined,
): Promise<OrderAccessCheck> {
  const given = (token ?? "").trim();
  if (!ORDER_ACCESS_TOKEN.test(given)) return { ok: false, reason: "invalid" };
  const [expiresText, signature] = given.split(".") as [string, string];
  const expires = Number(expiresText);
  if (!(await verifyHmac(orderLinkSecret(env), signed(purpose, number, expires), signature)))
    return { ok: false, reason: "invalid" };
  return expires > nowSeconds() ? { ok: true, expires } : { ok: false, reason: "expired" };
}

/** A tab grant for `number`, as the API answers it. */
export async function tabGrant(
  env: Pick<Env, "ORDER_LINK_SECRET" | "ENVIRONMENT">,
  number: string,
): Promise<OrderAccessGrant> {
  const expires = nowSeconds() + TAB_GRANT_SECONDS;
  return {
    access: await signOrderAccess(env, number, "tab", expires),
    expires_at: new Date(expires * 1000).toISOString(),
  };
}

/** Only an order without an account is opened by a link or a grant: an account's order by its account. */
export const openedByLink = (order: { user_id: number | null }): boolean => order.user_id === null;
