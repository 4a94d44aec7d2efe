import { Hono, type Context } from "hono";
import { returnDecisionInput, type ReturnAction } from "../../../../contract/returns";
import type { BackendEnv } from "../../env";
import { notFound, ok } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import { findConsoleOrder } from "../../services/orders/fulfilment";
import type { OrderRow } from "../../services/orders/orders";
import { actOnReturn, consoleReturnsOf } from "../../services/orders/returns";
import { currentStaff, staffOnly } from "../../services/console/staff";
import { bookReturnPickup } from "../../services/shipping/shipments";
import { msg } from "../../messages";

/**
 * /admin/orders/{number}/returns: support reads an order's returns; managers and owners
 * approve or reject them, mark them received (stock back on the shelf) and refund them
 * (services/orders/returns.ts). Every answer is the order's returns with the actions now allowed.
 */
export const returnsRoutes = new Hono<BackendEnv>();

async function orderOf(c: Context<BackendEnv>): Promise<OrderRow> {
  const number = c.req.param("number") ?? "";
  const order = /^SQ-[A-Z0-9]{8}$/i.test(number) ? await findConsoleOrder(c.env.DB, number) : null;
  if (!order) throw notFound(say(c.get("lang"), msg("console.orders.orderNotFound")));
  return order;
}

/** The order's returns as they are now (re-read: a step has just changed them). */
async function answer(c: Context<BackendEnv>) {
  return ok(c, await consoleReturnsOf(c.env.DB, await orderOf(c), currentStaff(c), c.get("lang")));
}

async function act(c: Context<BackendEnv>, action: ReturnAction, note: string | null = null) {
  const order = await orderOf(c);
  const { message } = await actOnReturn(c.env, order, c.req.param("id") ?? "", action, currentStaff(c), {
    lang: c.get("lang"),
    note,
  });
  // The provider refused the refund: nothing changed, its message goes where the amount is shown.
  if (message) return c.json({ message, errors: { amount: [message] } }, 422);
  // Approved: the carrier collects it from the shopper (a refusal is on the timeline; staff may still receive it by hand).
  if (action === "approve") await bookReturnPickup(c.env, order, c.req.param("id") ?? "");
  return answer(c);
}

returnsRoutes.get("/:number/returns", staffOnly("support"), answer);

/** POST .../returns/{id}/approve: requested → approved. */
returnsRoutes.post("/:number/returns/:id/approve", staffOnly("manager"), (c) => act(c, "approve"));
/** POST .../returns/{id}/reject {note?}: requested → rejected (its quantities may be asked for again). */
returnsRoutes.post(
  "/:number/returns/:id/reject",
  staffOnly("manager"),
  validate("json", (m) => returnDecisionInput(m)),
  (c) => act(c, "reject", c.req.valid("json").note),
);
/** POST .../returns/{id}/receive: approved → received; the items go back on the shelf; the shopper is told. */
returnsRoutes.post("/:number/returns/:id/receive", staffOnly("manager"), (c) => act(c, "receive"));
/** POST .../returns/{id}/refund: received → refunded, through the provider, linked to the refund. */
returnsRoutes.post("/:number/returns/:id/refund", staffOnly("manager"), (c) => act(c, "refund"));
