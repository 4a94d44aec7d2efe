import { Hono, type Context } from "hono";
import * as v from "valibot";
import {
  CONSOLE_ORDER_STATUSES,
  CONSOLE_PAYMENT_STATUSES,
  ORDER_SORTS,
  cancelInput,
  refundInput,
  shipInput,
  transferSentInput,
  staffNoteInput,
} from "../../../../contract/console-orders";
import type { InputMessages } from "../../../../contract/inputs";
import type { BackendEnv } from "../../env";
import { BackendError, notFound, ok } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import { listQuerySchema } from "../../services/console/list";
import {
  cancelOrder,
  consoleOrderDetail,
  deliverOrder,
  findConsoleOrder,
  listConsoleOrders,
  processOrder,
  refundLines,
  refundOrder,
  shipOrder,
} from "../../services/orders/fulfilment";
import { refundLatePayment } from "../../services/payments/late-payments";
import { markTransferSent } from "../../services/payments/cash-on-delivery";
import type { OrderActor, OrderRow } from "../../services/orders/orders";
import { flushNotifications, resendStatement } from "../../services/messages/notifications";
import { currentStaff, seesContactData, staffOnly } from "../../services/console/staff";
import { addNote } from "../../services/console/staff-notes";
import { debitNoteStatements, findTaxDocument, presentTaxDocument, vatRateOf } from "../../services/orders/invoices";
import { stampAndQueue } from "../../services/einvoicing/reporting";
import type { TaxDocument } from "../../../../contract/invoices";
import { packingSlipOf } from "../../services/orders/packing-slips";
import { auditStatement } from "../../services/console/audit-log";
import { msg } from "../../messages";

const MESSAGE_NOT_DEAD = msg("console.orders.messageNotDead");

/**
 * /admin/orders: support reads orders (contact data masked); managers and owners run the
 * transitions and refunds (services/orders/fulfilment.ts). Every answer about one order is the order
 * page's whole record, with the actions now allowed.
 */
export const ordersRoutes = new Hono<BackendEnv>();

ordersRoutes.use(staffOnly("support"));

/** An optional query value: empty reads as absent (a filter form sends its empty fields). */
const optional = <S extends v.GenericSchema<string, string>>(schema: S) =>
  v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.trim() || undefined),
      v.optional(schema),
    ),
  );

const day = (m: InputMessages, field: "date_from" | "date_to") =>
  v.pipe(
    v.string(),
    v.regex(/^\d{4}-\d{2}-\d{2}$/, m.invalid(field)),
    v.check(
      (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
      m.invalid(field),
    ),
  );

ordersRoutes.get(
  "/",
  validate("query", (m) =>
    v.pipe(
      v.object({
        ...listQuerySchema(ORDER_SORTS, { sort: "created_at", dir: "desc" }),
        status: optional(v.picklist(CONSOLE_ORDER_STATUSES, m.invalid("status"))),
        payment_status: optional(v.picklist(CONSOLE_PAYMENT_STATUSES, m.invalid("payment_status"))),
        date_from: optional(day(m, "date_from")),
        date_to: optional(day(m, "date_to")),
        search: optional(v.pipe(v.string(), v.maxLength(100, m.maxLength("search", 100)))),
        // `open`: orders with a return staff still have to act on.
        returns: optional(v.picklist(["open"], m.invalid("status"))),
        // `unconfirmed`: cash-on-delivery orders still waiting for the shopper's code.
        cod: optional(v.picklist(["unconfirmed"], m.invalid("status"))),
      }),
      v.forward(
        v.check((q) => !q.date_from || !q.date_to || q.date_from <= q.date_to, m.invalid("date_to")),
        ["date_to"],
      ),
    ),
  ),
  async (c) => {
    const { page, per_page, sort, dir, ...filters } = c.req.valid("query");
    const { rows, meta } = await listConsoleOrders(c.env.DB, { page, per_page, sort, dir }, filters, currentStaff(c));
    return ok(c, rows, { meta: { ...meta } });
  },
);

async function orderOf(c: Context<BackendEnv>): Promise<OrderRow> {
  const number = c.req.param("number") ?? "";
  const order = /^SQ-[A-Z0-9]{8}$/i.test(number) ? await findConsoleOrder(c.env.DB, number) : null;
  if (!order) throw notFound(say(c.get("lang"), msg("console.orders.orderNotFound")));
  return order;
}

const staffActor = (c: Context<BackendEnv>): OrderActor => ({ kind: "staff", staff: currentStaff(c) });

async function answer(c: Context<BackendEnv>, order: OrderRow, message?: string | null) {
  const detail = await consoleOrderDetail(c.env.DB, order, currentStaff(c), c.get("lang"));
  return ok(c, detail, message ? { message } : {});
}

ordersRoutes.get("/:number", async (c) => answer(c, await orderOf(c)));

/** POST /admin/orders/{number}/process: paid → processing. */
ordersRoutes.post("/:number/process", staffOnly("manager"), async (c) => {
  const order = await processOrder(c.env, await orderOf(c), staffActor(c), c.get("lang"));
  return answer(c, order);
});

/** POST /admin/orders/{number}/ship {carrier, tracking_number}: processing → shipped. */
ordersRoutes.post(
  "/:number/ship",
  staffOnly("manager"),
  validate("json", (m) => shipInput(m)),
  async (c) => {
    const order = await shipOrder(c.env, await orderOf(c), c.req.valid("json"), staffActor(c), c.get("lang"));
    return answer(c, order);
  },
);

/** POST /admin/orders/{number}/deliver: shipped → delivered. */
ordersRoutes.post("/:number/deliver", staffOnly("manager"), async (c) => {
  const order = await deliverOrder(c.env, await orderOf(c), staffActor(c), c.get("lang"));
  return answer(c, order);
});

/** POST /admin/orders/{number}/cancel {reason?}: the stock returns; a paid order is refunded in full. */
ordersRoutes.post(
  "/:number/cancel",
  staffOnly("manager"),
  validate("json", (m) => cancelInput(m)),
  async (c) => {
    const lang = c.get("lang");
    const { order, refund } = await cancelOrder(c.env, await orderOf(c), staffActor(c), {
      lang,
      reason: c.req.valid("json").reason,
    });
    return answer(c, order, refund && !refund.succeeded ? refund.message : null);
  },
);

/** POST /admin/orders/{number}/messages/{id}/resend: a dead order message goes to the queue again. */
ordersRoutes.post("/:number/messages/:id/resend", staffOnly("manager"), async (c) => {
  const order = await orderOf(c);
  const id = Number(c.req.param("id"));
  const resend = Number.isSafeInteger(id) && id > 0 ? await resendStatement(c.env.DB, order.id, id) : null;
  if (!resend) throw new BackendError(409, say(c.get("lang"), MESSAGE_NOT_DEAD));
  const audit = { message: id };
  await c.env.DB.batch([
    resend,
    auditStatement(c.env.DB, currentStaff(c), "order.message_resend", "order", order.number, audit, audit),
  ]);
  await flushNotifications(c.env, order.id);
  return answer(c, order);
});

/**
 * POST /admin/orders/{number}/refund {lines?, shipping?, restock?, amount?, reason?}: a refund of
 * chosen lines and/or the shipping (priced by the server), or of an amount alone, through the provider.
 */
ordersRoutes.post(
  "/:number/refund",
  staffOnly("manager"),
  validate("json", (m) => refundInput(m)),
  async (c) => {
    const lang = c.get("lang");
    const { amount, reason, lines, shipping, restock } = c.req.valid("json");
    const order = await orderOf(c);
    // Lines or shipping chosen: the server prices them (`amount` is what the console confirmed).
    const outcome =
      shipping || lines.some((l) => l.quantity > 0)
        ? await refundLines(c.env, order, { lines, shipping, restock, expected: amount }, staffActor(c), {
            lang,
            reason,
          })
        : await refundOrder(c.env, order, amount!, staffActor(c), { lang, reason });
    if (!outcome.succeeded) {
      const message = outcome.message ?? "";
      return c.json({ message, errors: { amount: [message] } }, 422);
    }
    return answer(c, (await findConsoleOrder(c.env.DB, order.number)) ?? order);
  },
);

/**
 * POST /admin/orders/{number}/debit-notes {amount, reason}: the order's total raised after its
 * invoice (a charge agreed with the buyer and collected: a redelivery fee, a price corrected up),
 * documented by a debit note that names the invoice and why; it is stamped and reported like the
 * invoice. An order without its invoice has nothing to raise (409).
 */
ordersRoutes.post(
  "/:number/debit-notes",
  staffOnly("manager"),
  validate("json", (m) =>
    v.object({
      amount: v.pipe(
        v.number(m.invalid("amount")),
        v.integer(m.invalid("amount")),
        v.minValue(1, m.invalid("amount")),
        v.maxValue(100_000_000, m.invalid("amount")),
      ),
      reason: v.pipe(
        v.string(m.required("reason")),
        v.trim(),
        v.nonEmpty(m.required("reason")),
        v.maxLength(200, m.maxLength("reason", 200)),
      ),
    }),
  ),
  async (c) => {
    const { amount, reason } = c.req.valid("json");
    const order = await orderOf(c);
    const [issued] = await c.env.DB.batch([
      ...debitNoteStatements(c.env.DB, order, { amount, reason }, vatRateOf(c.env, order)),
      auditStatement(
        c.env.DB,
        currentStaff(c),
        "order.debit_note",
        "order",
        order.id,
        null,
        { amount, reason },
        {
          onlyIfChanged: true,
        },
      ),
    ]);
    if (!issued.meta.changes) throw new BackendError(409, say(c.get("lang"), msg("orders.noInvoice")));
    await stampAndQueue(c.env);
    return answer(c, (await findConsoleOrder(c.env.DB, order.number)) ?? order);
  },
);

/**
 * POST /admin/orders/{number}/late-payments/{payment}/refund: money a gateway took after the shop
 * had closed the payment goes back in full, through that gateway. A refusal leaves it owed (502,
 * with the gateway's reason).
 */
ordersRoutes.post("/:number/late-payments/:payment/refund", staffOnly("manager"), async (c) => {
  const lang = c.get("lang");
  const order = await orderOf(c);
  const outcome = await refundLatePayment(c.env, c.req.param("payment") ?? "", staffActor(c), lang, order.id);
  if (!outcome.succeeded) return c.json({ message: outcome.message ?? "" }, 502);
  return answer(c, order, null);
});

/**
 * POST /admin/orders/{number}/transfers/{id}/sent {reference}: a cash-on-delivery refund's bank
 * transfer was made; the bank's reference is kept (services/payments/cash-on-delivery.ts).
 */
ordersRoutes.post(
  "/:number/transfers/:id/sent",
  staffOnly("manager"),
  validate("json", (m) => transferSentInput(m)),
  async (c) => {
    const order = await orderOf(c);
    await markTransferSent(
      c.env.DB,
      order,
      c.req.param("id") ?? "",
      c.req.valid("json").reference,
      currentStaff(c),
      c.get("lang"),
    );
    return answer(c, order);
  },
);

/** POST /admin/orders/{number}/notes {body}: an internal note; every staff role may add one (services/console/staff-notes.ts). */
ordersRoutes.post(
  "/:number/notes",
  validate("json", (m) => staffNoteInput(m)),
  async (c) => {
    const order = await orderOf(c);
    await addNote(c.env.DB, currentStaff(c), `order:${order.id}`, c.req.valid("json").body, {
      entity: "order",
      id: order.number,
    });
    return answer(c, order);
  },
);

/**
 * GET /admin/orders/{number}/invoice and /credit-notes/{id}: the documents the shopper gets, for
 * staff to view and print (every role: they carry the buyer's name and city, as the order page does;
 * the short address as the order page shows it to the reader's role).
 */
ordersRoutes.get("/:number/invoice", async (c) => {
  const order = await orderOf(c);
  const doc = await findTaxDocument(c.env, order, { kind: "invoice" });
  if (!doc) throw notFound(say(c.get("lang"), msg("console.orders.noInvoice")));
  return ok(c, staffView(c, await presentTaxDocument(c.env, order, doc, c.get("lang"))));
});

const noteAnswer = async (c: Context<BackendEnv>) => {
  const order = await orderOf(c);
  const id = Number(c.req.param("id"));
  const kind = c.req.path.includes("/debit-notes/") ? "debit_note" : "credit_note";
  const doc = Number.isSafeInteger(id) && id > 0 ? await findTaxDocument(c.env, order, { kind, id }) : null;
  if (!doc) throw notFound(say(c.get("lang"), msg("console.orders.creditNoteNotFound")));
  return ok(c, staffView(c, await presentTaxDocument(c.env, order, doc, c.get("lang"))));
};
ordersRoutes.get("/:number/credit-notes/:id", noteAnswer);
ordersRoutes.get("/:number/debit-notes/:id", noteAnswer);

/** A tax document as a staff member may read it: support learns only that the buyer has a short address (it finds the door). */
function staffView(c: Context<BackendEnv>, doc: TaxDocument): TaxDocument {
  if (seesContactData(currentStaff(c)) || !doc.buyer.short_address) return doc;
  return { ...doc, buyer: { ...doc.buyer, short_address: "•••" } };
}

/**
 * GET /admin/orders/{number}/packing-slip: what goes in the parcel. Managers and owners only: it
 * carries the whole delivery address and phone, which support sees masked.
 */
ordersRoutes.get("/:number/packing-slip", staffOnly("manager"), async (c) => {
  return ok(c, await packingSlipOf(c.env.DB, await orderOf(c), c.get("lang")));
});
