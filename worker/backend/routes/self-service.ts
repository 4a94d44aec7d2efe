import { rescheduleInput } from "../../../contract/shipping";
import { rescheduleDelivery } from "../services/shipping/shipments";
import { Hono, type Context } from "hono";
import { returnRequestInput } from "../../../contract/returns";
import type { BackendEnv } from "../env";
import { BackendError, ok } from "../http";
import { say } from "../../../contract/server/i18n";
import { readInput } from "../../../contract/server/validate";
import { cartOwner } from "../identity";
import { accessibleOrder } from "../order-access";
import { loadCart, reorderIntoCart } from "../services/orders/cart";
import { returnAddressOf } from "../services/orders/invoices";
import { loadSettings } from "../services/shared/settings";
import { type OrderRow } from "../services/orders/orders";
import { enforceLimits, requestNetwork } from "../services/shared/rate-limit";
import { cancelByShopper, requestReturn, returnWindowDays } from "../services/orders/returns";
import { presentOrder } from "../services/orders/shopper-orders";
import { msg } from "../messages";

/**
 * The shopper's self-service on their order: POST /orders/{number}/cancel and
 * POST /orders/{number}/returns. Only the owner or a tab holding a grant for the order
 * (order-access.ts; a stranger gets the same 404 as for an unknown number); counted like the
 * shop's other writes. Each answers the order as its page shows it.
 */
export const selfServiceRoutes = new Hono<BackendEnv>();

/** The owner's order with what its page may offer (cancel, returns, refunds). */
export async function presentOwnOrder(c: Context<BackendEnv>, order: OrderRow) {
  return presentOrder(c.env.DB, order, c.get("lang"), {
    selfService: {
      returnWindowDays: await returnWindowDays(c.env),
      sendTo: returnAddressOf((await loadSettings(c.env)).seller, c.get("lang")),
    },
  });
}

async function ownOrder(c: Context<BackendEnv>, action: string): Promise<OrderRow> {
  const number = c.req.param("number") ?? "";
  await enforceLimits(c, "SHOP_LIMITER", [
    `${action}:ip:${requestNetwork(c)}`,
    `${action}:order:${number.toUpperCase()}`,
  ]);
  return accessibleOrder(c, number);
}

const reread = async (c: Context<BackendEnv>, order: OrderRow) =>
  (await c.env.DB.prepare("SELECT * FROM orders WHERE id = ?").bind(order.id).first<OrderRow>()) ?? order;

/** POST /orders/{number}/cancel: before it ships; the stock returns and a paid order is refunded in full. */
selfServiceRoutes.post("/:number/cancel", async (c) => {
  const lang = c.get("lang");
  const { order, refund } = await cancelByShopper(c.env, await ownOrder(c, "cancel"), lang);
  // The cancel stands when the provider refuses the refund: the shop retries it from the console.
  return ok(
    c,
    await presentOwnOrder(c, order),
    refund && !refund.succeeded && refund.message ? { message: refund.message } : {},
  );
});

/** POST /orders/{number}/returns {items: [{product_id, quantity, reason, note?}]}: within the return window. */
// The owner is checked before the input, so a stranger learns nothing from a 422.
selfServiceRoutes.post("/:number/returns", async (c) => {
  const order = await ownOrder(c, "return");
  const input = await readInput(c, "json", (m) => returnRequestInput(m));
  await requestReturn(c.env, order, input, c.get("lang"));
  return ok(c, await presentOwnOrder(c, await reread(c, order)), { status: 201 });
});

/**
 * POST /orders/{number}/shipments/{seq}/reschedule {day}: after a missed delivery, the day the
 * shopper will be home (one of the working days the order page offers).
 */
selfServiceRoutes.post("/:number/shipments/:seq/reschedule", async (c) => {
  const order = await ownOrder(c, "reschedule");
  const { day } = await readInput(c, "json", (m) => rescheduleInput(m));
  const seq = Number(c.req.param("seq"));
  await rescheduleDelivery(c.env, order, Number.isSafeInteger(seq) ? seq : 0, day, c.get("lang"));
  return ok(c, await presentOwnOrder(c, order));
});

/**
 * POST /orders/{number}/order-again: a cancelled or expired order's lines back in the owner's cart
 * (services/orders/cart.ts `reorderIntoCart`). Answers the cart, and what could not come back as it was.
 */
selfServiceRoutes.post("/:number/order-again", async (c) => {
  const order = await ownOrder(c, "reorder");
  const lang = c.get("lang");
  if (order.status !== "cancelled")
    throw new BackendError(409, say(lang, msg("accounts.selfService.reorderNotCancelled")));
  const outcome = await reorderIntoCart(c.env.DB, await cartOwner(c), order.id, lang);
  return ok(c, { ...(await loadCart(c.env.DB, await cartOwner(c), lang)), reorder: outcome });
});
