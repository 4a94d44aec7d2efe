import type { Context } from "hono";
import { ORDER_ACCESS_HEADER } from "../../contract/order-access";
import type { BackendEnv } from "./env";
import { BackendError, notFound } from "./http";
import { say } from "../../contract/server/i18n";
import { authenticate, knownGuest, type CartOwner } from "./identity";
import { findOrderByNumber, ownsOrder, type OrderRow } from "./services/orders/orders";
import { openedByLink, verifyOrderAccess } from "./services/orders/order-links";
import { releaseExpiredReservations } from "./services/orders/reservations";
import { msg } from "./messages";

const ORDER_NUMBER = /^SQ-[A-Z0-9]{8}$/i;

const orderNotFound = (c: Context<BackendEnv>) => notFound(say(c.get("lang"), msg("orders.access.orderNotFound")));

/**
 * The order `number` when this caller may read it and use its self-service, checked on every such
 * call. Two proofs: its owner (the signed-in account, or the guest id that placed it), or a tab
 * grant for this very order in ORDER_ACCESS_HEADER (a message link or tracking gave it), which
 * opens only an order without an account. Anyone else gets the 404 of an unknown number; a caller
 * with neither identity nor grant gets 401, so a signed-out account holder is sent to sign in.
 */
export async function accessibleOrder(c: Context<BackendEnv>, number: string): Promise<OrderRow> {
  const grant = c.req.header(ORDER_ACCESS_HEADER)?.trim() || null;
  const userId = await authenticate(c);
  const guestId = userId === null ? await knownGuest(c) : null;
  const owner: CartOwner | null =
    userId !== null ? { userId, guestId: null } : guestId ? { userId: null, guestId } : null;
  if (!owner && !grant) throw new BackendError(401, "Unauthenticated.");
  if (!ORDER_NUMBER.test(number)) throw orderNotFound(c);
  // The grant is checked before the order is looked up, so its answer takes as long whether the
  // number exists or not (an unknown number and a stranger's order answer alike).
  const granted = grant !== null && (await verifyOrderAccess(c.env, number, "tab", grant)).ok;
  await releaseExpiredReservations(c.env.DB);
  const order = await findOrderByNumber(c.env.DB, number);
  if (order && ((owner && ownsOrder(order, owner)) || (granted && openedByLink(order)))) return order;
  throw orderNotFound(c);
}
