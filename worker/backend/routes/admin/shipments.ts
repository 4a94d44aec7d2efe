import { Hono, type Context } from "hono";
import {
  BULK_SHIP_MAX,
  CARRIER_IDS,
  CARRIER_NAMES,
  LABEL_SIZES,
  PARCELS_MAX,
  bulkShipInput,
  createShipmentsInput,
  isCalendarDay,
} from "../../../../contract/shipping";
import { shopIsoDay } from "../../../../contract/shop-clock";
import { loadSettings } from "../../services/shared/settings";
import { labelParcels, manifestRows, pickLines } from "../../services/shipping/documents";
import type { BackendEnv } from "../../env";
import { notFound, ok } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import { consoleOrderDetail, findConsoleOrder } from "../../services/orders/fulfilment";
import type { OrderActor, OrderRow } from "../../services/orders/orders";
import { currentStaff, staffOnly } from "../../services/console/staff";
import { cancelShipment, createShipments, shipOrders, recordRemittances } from "../../services/shipping/shipments";
import { readStatement, remittanceReport } from "../../services/shipping/remittances";
import { auditStatement } from "../../services/console/audit-log";
import * as v from "valibot";
import { msg } from "../../messages";

/**
 * Parcels from the console: create them for one order (split into several when a line is not
 * ready) or for many at once, cancel one before pickup, and reconcile the cash carriers collected.
 * Managers and owners: a parcel carries the whole delivery address.
 */
export const shipmentsRoutes = new Hono<BackendEnv>();

// Per route, not `use`: mounted at the console's root, a `use` would guard every console path.
const managers = staffOnly("manager");

const staffActor = (c: Context<BackendEnv>): OrderActor => ({ kind: "staff", staff: currentStaff(c) });

async function orderOf(c: Context<BackendEnv>): Promise<OrderRow> {
  const number = c.req.param("number") ?? "";
  const order = /^SQ-[A-Z0-9]{8}$/i.test(number) ? await findConsoleOrder(c.env.DB, number) : null;
  if (!order) throw notFound(say(c.get("lang"), msg("console.orders.orderNotFound")));
  return order;
}

async function answer(c: Context<BackendEnv>, order: OrderRow) {
  const fresh = (await findConsoleOrder(c.env.DB, order.number)) ?? order;
  return ok(c, await consoleOrderDetail(c.env.DB, fresh, currentStaff(c), c.get("lang")));
}

/** POST /admin/orders/{number}/shipments {parcels?}: the parcels to create now (left out: one of everything left). */
shipmentsRoutes.post(
  "/orders/:number/shipments",
  managers,
  validate("json", (m) => createShipmentsInput(m)),
  async (c) => {
    const order = await orderOf(c);
    await createShipments(c.env, order, c.req.valid("json").parcels, staffActor(c), c.get("lang"));
    return answer(c, order);
  },
);

/** POST /admin/orders/{number}/shipments/{id}/cancel: a parcel not yet picked up. */
shipmentsRoutes.post("/orders/:number/shipments/:id/cancel", managers, async (c) => {
  const order = await orderOf(c);
  const id = Number(c.req.param("id"));
  if (!Number.isSafeInteger(id) || id <= 0) throw notFound(say(c.get("lang"), msg("shipping.notFound")));
  await cancelShipment(c.env, order, id, staffActor(c), c.get("lang"));
  return answer(c, order);
});

/** POST /admin/shipments {orders}: one parcel each of everything left, order by order; each says what it did. */
shipmentsRoutes.post(
  "/shipments",
  managers,
  validate("json", (m) => bulkShipInput(m)),
  async (c) => {
    const lang = c.get("lang");
    const results = await shipOrders(c.env, c.req.valid("json").orders, staffActor(c), lang, (n) =>
      findConsoleOrder(c.env.DB, n),
    );
    return ok(c, results);
  },
);

/** GET /admin/shipments/remittances: delivered COD parcels against the cash carriers reported. */
shipmentsRoutes.get("/shipments/remittances", managers, async (c) => ok(c, await remittanceReport(c.env.DB)));

const STATEMENT_WORDS = {
  header: msg("shipping.statement.header"),
  rows: msg("shipping.statement.rows"),
  syntax: msg("shipping.statement.syntax"),
  waybill: msg("shipping.statement.waybill"),
  amount: msg("shipping.statement.amount"),
  reference: msg("shipping.statement.reference"),
  date: msg("shipping.statement.date"),
};

/**
 * POST /admin/shipments/remittances {carrier, csv}: a carrier's COD statement (Aramex's, which has
 * no API): every row is checked first, then each is recorded once against its parcel.
 */
shipmentsRoutes.post(
  "/shipments/remittances",
  managers,
  validate("json", (m) =>
    v.object({
      carrier: v.picklist(CARRIER_IDS, m.invalid("carrier")),
      csv: v.pipe(
        v.string(m.required("file")),
        v.nonEmpty(m.required("file")),
        v.maxLength(500_000, m.maxLength("file", 500_000)),
      ),
    }),
  ),
  async (c) => {
    const lang = c.get("lang");
    const { carrier, csv } = c.req.valid("json");
    const reading = readStatement(csv);
    if (!reading.ok) {
      const lines = reading.errors.map((e) => say(lang, STATEMENT_WORDS[e.problem], { line: e.line }));
      return c.json({ message: lines[0], errors: { csv: lines } }, 422);
    }
    const recorded = await recordRemittances(c.env.DB, carrier, reading.lines);
    await auditStatement(c.env.DB, currentStaff(c), "report.cod_statement", "report", carrier, null, {
      rows: reading.lines.length,
      recorded,
    }).run();
    return ok(c, { rows: reading.lines.length, recorded, report: await remittanceReport(c.env.DB) });
  },
);

/** A comma-separated list of query values, each matching `pattern`; at most `max`. */
const listOf = (pattern: RegExp, max: number) =>
  v.pipe(
    v.optional(v.string(), ""),
    v.transform((s) =>
      s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean),
    ),
    v.check((xs) => xs.length <= max && xs.every((x) => pattern.test(x))),
  );

/** A PDF answer: shown in the browser's viewer (printed from there), named for a download. */
const pdf = (bytes: Uint8Array, name: string) =>
  // A copy typed over a plain ArrayBuffer, as a Response body must be.
  new Response(new Uint8Array(bytes), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `inline; filename="${name}"`,
      "cache-control": "private, no-store",
    },
  });

/**
 * GET /admin/shipments/labels.pdf?ids=1,2 or ?orders=SQ-…,SQ-… [&size=a6|4x6]: the labels of those
 * parcels (or of those orders' live parcels), one page each, at the settings' size unless asked.
 * The PDF library loads only here: the worker's other requests never parse it.
 */
shipmentsRoutes.get(
  "/shipments/labels.pdf",
  managers,
  validate("query", (m) =>
    v.object({
      ids: listOf(/^\d{1,12}$/, BULK_SHIP_MAX * PARCELS_MAX),
      orders: listOf(/^SQ-[A-Z0-9]{8}$/i, BULK_SHIP_MAX),
      size: v.optional(v.picklist(LABEL_SIZES, m.invalid("label_size"))),
    }),
  ),
  async (c) => {
    const { ids, orders, size } = c.req.valid("query");
    const parcels = await labelParcels(c.env, ids.length ? { ids: ids.map(Number) } : { orders });
    if (!parcels.length) throw notFound(say(c.get("lang"), msg("shipping.notFound")));
    const { labelsPdf } = await import("../../services/shipping/labels");
    const chosen = size ?? (await loadSettings(c.env)).carriers.label_size;
    return pdf(
      await labelsPdf(parcels, chosen),
      `labels-${parcels[0].order_number}${parcels.length > 1 ? `-${parcels.length}` : ""}.pdf`,
    );
  },
);

/** GET /admin/shipments/pick-list.pdf?orders=SQ-…,SQ-…: what to take off the shelves for those orders, by SKU. */
shipmentsRoutes.get(
  "/shipments/pick-list.pdf",
  managers,
  validate("query", () => v.object({ orders: listOf(/^SQ-[A-Z0-9]{8}$/i, BULK_SHIP_MAX) })),
  async (c) => {
    const { orders } = c.req.valid("query");
    if (!orders.length) throw notFound(say(c.get("lang"), msg("shipping.notFound")));
    const { pickListPdf } = await import("../../services/shipping/labels");
    const day = shopIsoDay();
    return pdf(await pickListPdf({ day, lines: await pickLines(c.env.DB, orders) }), `pick-list-${day}.pdf`);
  },
);

/** GET /admin/shipments/manifest.pdf?carrier=courier&day=YYYY-MM-DD: a carrier's parcels of a shop day, for its courier to sign. */
shipmentsRoutes.get(
  "/shipments/manifest.pdf",
  managers,
  validate("query", (m) =>
    v.object({
      carrier: v.picklist(CARRIER_IDS, m.invalid("carrier")),
      day: v.optional(v.pipe(v.string(), v.check(isCalendarDay, m.invalid("day")))),
    }),
  ),
  async (c) => {
    const { carrier, day = shopIsoDay() } = c.req.valid("query");
    const settings = await loadSettings(c.env);
    const { manifestPdf } = await import("../../services/shipping/labels");
    const rows = await manifestRows(c.env.DB, carrier, day);
    const shop = c.get("lang") === "ar" ? settings.store.name_ar : settings.store.name_en;
    return pdf(
      await manifestPdf({ day, carrier: CARRIER_NAMES[carrier], shop, rows }),
      `manifest-${carrier}-${day}.pdf`,
    );
  },
);
