import { env } from "cloudflare:workers";
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { address, call, createProduct, newUser, stockOf, type Shopper } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import { payOrder } from "../support/orders";
import { outbox } from "../support/accounts";
import { PDFDocument } from "pdf-lib";
import { readCode128, readPage } from "../support/pdf-reader";
import { signCourierWebhook } from "../../worker/backend/services/shipping/courier";
import { pollCarriers } from "../../worker/backend/services/shipping/shipments";
import { pruneWebhookDeliveries } from "../../worker/backend/services/shipping/webhooks";
import { attemptDays } from "../../worker/backend/services/shipping/views";
import type { Env as BackendBindings } from "../../worker/backend/env";
import type { ShipmentStatus } from "../../contract/shipping";

// Parcels with carriers: an order split into two parcels, the local courier's signed webhook
// moving them to delivered (and the order with them), a missed delivery and the shopper's new day,
// a return picked up from the shopper, cancelling before pickup, and cash on delivery reconciled.

const SECRET = "development-courier-webhook-secret";

/** A paid order of two products: `a` units of the first, `b` of the second. */
async function twoLineOrder(shopper: Shopper, a = 2, b = 1) {
  const first = await createProduct({ stock: 10, price: 10000 });
  const second = await createProduct({ stock: 10, price: 5000 });
  for (const [p, q] of [
    [first, a],
    [second, b],
  ] as const)
    expect((await call(shopper, "POST", "/cart/add-product", { product_id: p.id, quantity: q })).status).toBe(200);
  const placed = await call(shopper, "POST", "/checkout", {
    idempotency_key: crypto.randomUUID(),
    email: shopper.email,
    address,
    shipping_method: "standard",
    payment_method: "card",
  });
  expect(placed.status).toBe(201);
  const number = placed.body.data.number as string;
  await payOrder(shopper, number);
  return { number, first, second };
}

/** The order's parcels as the console reads them. */
const consoleOrder = async (manager: Staff, number: string) =>
  (await call(manager, "GET", `/admin/orders/${number}`)).body.data;

/** The courier's app reports a step (signed, through the webhook's verification). */
async function courier(waybill: string, status: ShipmentStatus, extra: { at?: string; remit?: number } = {}) {
  const res = await call(null, "POST", "/dev/courier", { waybill, status, ...extra });
  expect(res.status).toBe(200);
  return res.body as unknown as { events: number; remittances: number };
}

const messagesOf = async (number: string, kind: string) =>
  (await env.DB.prepare(
    "SELECT COUNT(*) AS n FROM notifications n JOIN orders o ON o.id = n.order_id WHERE o.number = ? AND n.kind = ? AND n.channel = 'email'",
  )
    .bind(number, kind)
    .first<{ n: number }>())!.n;

/** Sends a raw body to the courier webhook with a given signature header. */
const webhook = (body: string, signature: string) =>
  SELF.fetch("http://shop.test/backend/shipping/webhooks/courier", {
    method: "POST",
    headers: { "content-type": "application/json", "courier-signature": signature },
    body,
  });

describe("creating parcels", () => {
  it("splits an order into two parcels; it ships once every unit is in one, told once", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const { number, first, second } = await twoLineOrder(shopper, 2, 1);
    const before = await consoleOrder(manager, number);
    expect(before.shippable).toEqual([
      expect.objectContaining({ variant_id: first.id, left: 2 }),
      expect.objectContaining({ variant_id: second.id, left: 1 }),
    ]);

    // More units than bought, or a line of another order: refused, nothing created.
    const tooMany = await call(manager, "POST", `/admin/orders/${number}/shipments`, {
      parcels: [{ lines: [{ variant_id: first.id, quantity: 3 }] }],
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors?.parcels?.[0]).toMatch(/more units/);
    const empty = await call(manager, "POST", `/admin/orders/${number}/shipments`, {
      parcels: [{ lines: [{ variant_id: first.id, quantity: 0 }] }],
    });
    expect(empty.status).toBe(422);
    expect((await consoleOrder(manager, number)).shipments).toEqual([]);

    // The first line now; the order is being prepared, not shipped.
    const one = await call(manager, "POST", `/admin/orders/${number}/shipments`, {
      parcels: [{ lines: [{ variant_id: first.id, quantity: 2 }] }],
    });
    expect(one.status).toBe(200);
    expect(one.body.data.status).toBe("processing");
    expect(one.body.data.shipments).toHaveLength(1);
    expect(one.body.data.shipments[0]).toMatchObject({
      seq: 1,
      carrier: "courier",
      status: "created",
      weight_grams: 1000,
      items: [expect.objectContaining({ variant_id: first.id, quantity: 2 })],
    });
    expect(one.body.data.shipments[0].waybill).toMatch(/^SQC\d{10}$/);
    expect(one.body.data.shippable).toEqual([expect.objectContaining({ variant_id: second.id, left: 1 })]);
    expect(await messagesOf(number, "shipped")).toBe(0);

    // The rest: everything is in a parcel, the order is shipped and the shopper told once.
    const rest = await call(manager, "POST", `/admin/orders/${number}/shipments`, {});
    expect(rest.status).toBe(200);
    expect(rest.body.data.status).toBe("shipped");
    expect(rest.body.data.shipments.map((s: { seq: number }) => s.seq)).toEqual([1, 2]);
    expect(rest.body.data.shippable).toEqual([]);
    expect(await messagesOf(number, "shipped")).toBe(1);
    // Nothing left: a third parcel is refused.
    expect((await call(manager, "POST", `/admin/orders/${number}/shipments`, {})).status).toBe(409);

    // The shopper's page lists both parcels with their lines.
    const mine = await call(shopper, "GET", `/orders/${number}`);
    expect(mine.body.data.shipments).toHaveLength(2);
    expect(mine.body.data.shipments[1].items[0]).toMatchObject({ variant_id: second.id, quantity: 1 });
  });

  it("two staff shipping the same units at once: one parcel is made, the other refused", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const { number } = await twoLineOrder(shopper, 1, 1);
    const [a, b] = await Promise.all([
      call(manager, "POST", `/admin/orders/${number}/shipments`, {}),
      call(manager, "POST", `/admin/orders/${number}/shipments`, {}),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const parcels = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM shipments s JOIN orders o ON o.id = s.order_id WHERE o.number = ? AND s.status != 'cancelled'",
    )
      .bind(number)
      .first<{ n: number }>();
    expect(parcels!.n).toBe(1);
  });

  it("ships many orders at once, each saying what it did; support may not", async () => {
    const [shopper, manager, support] = await Promise.all([newUser(), newStaff("manager"), newStaff("support")]);
    const a = await twoLineOrder(shopper);
    const b = await twoLineOrder(shopper);
    expect((await call(support, "POST", "/admin/shipments", { orders: [a.number] })).status).toBe(403);
    expect((await call(manager, "POST", "/admin/shipments", { orders: [] })).status).toBe(422);
    const res = await call(manager, "POST", "/admin/shipments", { orders: [a.number, b.number, "SQ-ZZZZZZZZ"] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { number: a.number, waybills: [expect.stringMatching(/^SQC/)], error: null },
      { number: b.number, waybills: [expect.stringMatching(/^SQC/)], error: null },
      { number: "SQ-ZZZZZZZZ", waybills: [], error: expect.any(String) },
    ]);
    expect((await consoleOrder(manager, a.number)).status).toBe("shipped");
  });

  it("cancels a parcel before pickup (the order is to ship again), not after", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const { number } = await twoLineOrder(shopper, 1, 1);
    const made = await call(manager, "POST", `/admin/orders/${number}/shipments`, {});
    const parcel = made.body.data.shipments[0];
    // An order with a parcel out cannot be cancelled as if nothing had left.
    expect((await call(manager, "POST", `/admin/orders/${number}/cancel`, {})).status).toBe(409);
    const cancelled = await call(manager, "POST", `/admin/orders/${number}/shipments/${parcel.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe("processing");
    expect(cancelled.body.data.shipments[0].status).toBe("cancelled");
    expect(cancelled.body.data.shippable).toHaveLength(2);

    const again = await call(manager, "POST", `/admin/orders/${number}/shipments`, {});
    const second = again.body.data.shipments[1];
    await courier(second.waybill, "picked_up");
    const late = await call(manager, "POST", `/admin/orders/${number}/shipments/${second.id}/cancel`);
    expect(late.status).toBe(409);
  });
});

describe("following parcels", () => {
  it("the courier's steps move each parcel; the last delivered delivers the order, with its messages", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const { number, first } = await twoLineOrder(shopper, 1, 1);
    await call(manager, "POST", `/admin/orders/${number}/shipments`, {
      parcels: [{ lines: [{ variant_id: first.id, quantity: 1 }] }],
    });
    const made = await call(manager, "POST", `/admin/orders/${number}/shipments`, {});
    const [p1, p2] = made.body.data.shipments as { waybill: string }[];

    const start = Date.now();
    const t = (m: number) => new Date(start - (60 - m) * 60_000).toISOString();
    await courier(p1.waybill, "picked_up", { at: t(1) });
    await courier(p1.waybill, "in_transit", { at: t(2) });
    await courier(p1.waybill, "out_for_delivery", { at: t(3) });
    expect(await messagesOf(number, "out_for_delivery")).toBe(1);
    await courier(p1.waybill, "delivered", { at: t(4) });
    // One parcel of two: the order is still on its way.
    expect((await consoleOrder(manager, number)).status).toBe("shipped");
    // A step sent again (the same code and moment) changes nothing.
    expect((await courier(p1.waybill, "delivered", { at: t(4) })).events).toBe(0);
    // A late step never moves a parcel back.
    await courier(p1.waybill, "in_transit", { at: t(5) });

    await courier(p2.waybill, "out_for_delivery", { at: t(6) });
    await courier(p2.waybill, "delivered", { at: t(7) });
    const done = await consoleOrder(manager, number);
    expect(done.status).toBe("delivered");
    expect(done.shipments.map((s: { status: string }) => s.status)).toEqual(["delivered", "delivered"]);
    expect(await messagesOf(number, "delivered")).toBe(1);
    expect(await messagesOf(number, "out_for_delivery")).toBe(2);

    const page = await call(shopper, "GET", `/orders/${number}`);
    expect(page.body.data.status).toBe("delivered");
    expect(page.body.data.shipments[0].steps.map((s: { status: string }) => s.status)).toEqual([
      "picked_up",
      "in_transit",
      "out_for_delivery",
      "delivered",
      "in_transit",
    ]);
    // The timeline in the console names each step.
    const types = done.events.map((e: { type: string }) => e.type);
    expect(types).toContain("shipment_out_for_delivery");
    expect(types.filter((x: string) => x === "shipment_delivered")).toHaveLength(2);
  });

  it("a missed delivery: the shopper is told, chooses one of the offered days, and the courier comes again", async () => {
    const [shopper, stranger, manager] = await Promise.all([newUser(), newUser(), newStaff("manager")]);
    const { number } = await twoLineOrder(shopper, 1, 1);
    const made = await call(manager, "POST", `/admin/orders/${number}/shipments`, {});
    const { waybill } = made.body.data.shipments[0];
    const path = `/orders/${number}/shipments/1/reschedule`;

    // Not before an attempt failed.
    await courier(waybill, "out_for_delivery");
    const early = await call(shopper, "GET", `/orders/${number}`);
    expect(early.body.data.shipments[0].attempt_days).toEqual([]);
    expect((await call(shopper, "POST", path, { day: "2099-01-01" })).status).toBe(409);

    await courier(waybill, "delivery_attempted");
    expect(await messagesOf(number, "delivery_attempted")).toBe(1);
    // Rendered and sent, by email and SMS, with the link to choose a day.
    await expect
      .poll(async () => (await outbox(shopper.email)).map((e) => e.purpose), { timeout: 10_000 })
      .toContain("order.delivery_attempted");
    await expect
      .poll(async () => (await outbox(address.phone)).map((e) => e.purpose), { timeout: 10_000 })
      .toContain("order.delivery_attempted");
    const page = await call(shopper, "GET", `/orders/${number}`);
    const days = page.body.data.shipments[0].attempt_days as string[];
    expect(days).toHaveLength(5);
    // Working days only: no Friday or Saturday.
    for (const d of days) expect([5, 6]).not.toContain(new Date(`${d}T12:00:00Z`).getUTCDay());

    expect((await call(stranger, "POST", path, { day: days[1] })).status).toBe(404);
    const bad = await call(shopper, "POST", path, { day: "2020-01-01" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.day).toBeTruthy();
    expect((await call(shopper, "POST", path, { day: "not a day" })).status).toBe(422);
    const chosen = await call(shopper, "POST", path, { day: days[1] });
    expect(chosen.status).toBe(200);
    expect(chosen.body.data.shipments[0].next_attempt_on).toBe(days[1]);
    expect((await consoleOrder(manager, number)).shipments[0].next_attempt_on).toBe(days[1]);

    await courier(waybill, "out_for_delivery");
    expect(await messagesOf(number, "out_for_delivery")).toBe(2);
    await courier(waybill, "delivered");
    expect((await consoleOrder(manager, number)).status).toBe("delivered");
  });
});

describe("the courier's webhook", () => {
  it("refuses a forged signature, a stale one, a replay and a bad body; takes a good one once", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const { number } = await twoLineOrder(shopper, 1, 1);
    const made = await call(manager, "POST", `/admin/orders/${number}/shipments`, {});
    const { waybill } = made.body.data.shipments[0];
    const body = JSON.stringify({
      id: crypto.randomUUID(),
      events: [{ waybill, status: "picked_up", at: new Date().toISOString() }],
    });
    const statusNow = async () => (await consoleOrder(manager, number)).shipments[0].status;

    expect((await webhook(body, await signCourierWebhook("someone-else", body))).status).toBe(401);
    expect((await webhook(body, "t=1,v1=00")).status).toBe(401);
    expect((await webhook(body, "")).status).toBe(401);
    // Signed right but with its body changed after signing.
    const tampered = body.replace("picked_up", "delivered");
    expect((await webhook(tampered, await signCourierWebhook(SECRET, body))).status).toBe(401);
    // Signed right, ten minutes ago.
    expect((await webhook(body, await signCourierWebhook(SECRET, body, Date.now() - 600_000))).status).toBe(401);
    expect(await statusNow()).toBe("created");

    const good = await signCourierWebhook(SECRET, body);
    const taken = await webhook(body, good);
    expect(taken.status).toBe(200);
    expect(await taken.json()).toMatchObject({ received: true, events: 1 });
    expect(await statusNow()).toBe("picked_up");
    // The same delivery again, within its five minutes: refused as a replay.
    expect((await webhook(body, good)).status).toBe(409);

    // The cron forgets ids past the replay window (a day old), and keeps the fresh ones.
    await env.DB.prepare(
      "INSERT INTO carrier_webhooks (carrier, delivery_id, received_at) VALUES ('courier', ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-2 days'))",
    )
      .bind(`old-${crypto.randomUUID()}`)
      .run();
    expect(await pruneWebhookDeliveries(env.DB)).toBeGreaterThanOrEqual(1);
    const left = await env.DB.prepare("SELECT COUNT(*) AS n FROM carrier_webhooks WHERE delivery_id = ?")
      .bind(JSON.parse(body).id)
      .first<{ n: number }>();
    expect(left!.n).toBe(1);

    const junk = JSON.stringify({ id: "x", events: [{ waybill, status: "teleported", at: "yesterday" }] });
    expect((await webhook(junk, await signCourierWebhook(SECRET, junk))).status).toBe(422);
  });
});

describe("returns picked up", () => {
  it("an approved return is booked with the carrier and received when its parcel reaches the shop", async () => {
    const [shopper, manager] = await Promise.all([newUser(), newStaff("manager")]);
    const { number, first } = await twoLineOrder(shopper, 2, 1);
    const made = await call(manager, "POST", `/admin/orders/${number}/shipments`, {});
    await courier(made.body.data.shipments[0].waybill, "delivered");
    expect((await consoleOrder(manager, number)).status).toBe("delivered");

    const requested = await call(shopper, "POST", `/orders/${number}/returns`, {
      items: [{ product_id: first.id, quantity: 1, reason: "damaged" }],
    });
    expect(requested.status).toBe(201);
    const id = requested.body.data.self_service.returns[0].id as string;
    const stock = await stockOf(first.id);
    expect((await call(manager, "POST", `/admin/orders/${number}/returns/${id}/approve`)).status).toBe(200);

    const order = await consoleOrder(manager, number);
    const pickup = order.shipments.find((s: { kind: string }) => s.kind === "return");
    expect(pickup).toMatchObject({ seq: 2, carrier: "courier", status: "created" });
    expect(order.events.map((e: { type: string }) => e.type)).toContain("return_pickup_booked");

    await courier(pickup.waybill, "picked_up");
    expect((await call(manager, "GET", `/admin/orders/${number}/returns`)).body.data[0].status).toBe("approved");
    await courier(pickup.waybill, "delivered");
    const returns = (await call(manager, "GET", `/admin/orders/${number}/returns`)).body.data;
    expect(returns[0]).toMatchObject({ status: "received", actions: ["refund"] });
    expect(await stockOf(first.id)).toBe(stock + 1);
    // The order stays delivered: a return parcel is not a delivery.
    expect((await consoleOrder(manager, number)).status).toBe("delivered");
  });
});

describe("cash on delivery, reconciled", () => {
  it("lists delivered COD parcels the carrier's reports do not match, and counts those that do", async () => {
    const manager = await newStaff("manager");
    const codParcel = async () => {
      const shopper = await newUser();
      const { number } = await twoLineOrder(shopper, 1, 1);
      // Made a COD order as the payment step would leave it: confirmed, cash owed at the door.
      await env.DB.prepare(
        "UPDATE orders SET payment_method = 'cod', paid_at = NULL, status = 'processing' WHERE number = ?",
      )
        .bind(number)
        .run();
      const made = await call(manager, "POST", `/admin/orders/${number}/shipments`, {});
      expect(made.status).toBe(200);
      const parcel = made.body.data.shipments[0] as { waybill: string; cod_amount: number };
      expect(parcel.cod_amount).toBe(made.body.data.total);
      return { number, ...parcel };
    };
    const before = (await call(manager, "GET", "/admin/shipments/remittances")).body.data;
    const exact = await codParcel();
    const short = await codParcel();
    const missing = await codParcel();
    await courier(exact.waybill, "delivered", { remit: exact.cod_amount });
    await courier(short.waybill, "delivered", { remit: short.cod_amount - 500 });
    await courier(missing.waybill, "delivered");
    // The courier reports cash for a parcel that is not one of ours.
    const stray = `SQC${Date.now() % 10_000_000_000}`;
    await courier(stray, "delivered", { remit: 1234 });

    // Delivered by the courier: the COD order is paid, its cash collected.
    expect((await consoleOrder(manager, exact.number)).payment_status).toBe("paid");

    const report = await call(manager, "GET", "/admin/shipments/remittances");
    expect(report.status).toBe(200);
    const data = report.body.data;
    expect(data.matched).toBe(before.matched + 1);
    const find = (waybill: string) => data.differences.find((d: { waybill: string }) => d.waybill === waybill);
    expect(find(exact.waybill)).toBeUndefined();
    expect(find(short.waybill)).toMatchObject({
      kind: "short",
      expected: short.cod_amount,
      remitted: short.cod_amount - 500,
      order_number: short.number,
    });
    expect(find(missing.waybill)).toMatchObject({ kind: "missing", remitted: 0, order_number: missing.number });
    expect(find(stray)).toMatchObject({ kind: "unknown", remitted: 1234, order_number: null });
    const support = await newStaff("support");
    expect((await call(support, "GET", "/admin/shipments/remittances")).status).toBe(403);

    // A carrier's statement as CSV (Aramex has no API for it): one bad row refuses the whole file.
    const day = new Date().toISOString().slice(0, 10);
    const owed = (missing.cod_amount / 100).toFixed(2);
    const broken = `waybill,amount,reference,date\n${missing.waybill},${owed},ST-1,${day}\n${missing.waybill},lots,ST-1,${day}\n`;
    const refused = await call(manager, "POST", "/admin/shipments/remittances", { carrier: "courier", csv: broken });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.csv?.[0]).toMatch(/Line 3/);
    expect((await call(manager, "GET", "/admin/shipments/remittances")).body.data.matched).toBe(data.matched);
    expect(
      (await call(manager, "POST", "/admin/shipments/remittances", { carrier: "courier", csv: "parcel,sum\nx,1\n" }))
        .status,
    ).toBe(422);
    const statement = `Waybill,Amount,Reference,Date\n${missing.waybill},${owed},ST-1,${day}\n`;
    const imported = await call(manager, "POST", "/admin/shipments/remittances", {
      carrier: "courier",
      csv: statement,
    });
    expect(imported.status).toBe(200);
    expect(imported.body.data).toMatchObject({ rows: 1, recorded: 1 });
    expect(imported.body.data.report.matched).toBe(data.matched + 1);
    // The same statement again records nothing twice.
    const again = await call(manager, "POST", "/admin/shipments/remittances", { carrier: "courier", csv: statement });
    expect(again.body.data).toMatchObject({ rows: 1, recorded: 0 });
  });
});

describe("carriers by region and weight, and the cron asking Aramex", () => {
  it("the owner's rules choose the carrier; the cron reads Aramex's steps and cash through its adapter", async () => {
    const [owner, manager, shopper] = await Promise.all([newStaff("owner"), newStaff("manager"), newUser()]);
    const shipFrom = {
      name: "Souq Warehouse",
      phone: "+966112345678",
      line1: "Exit 18, Industrial City",
      district: "Al Sulay",
      city: "Riyadh",
      postal_code: "14322",
      short_address: "RRSA1234",
    };
    // Rules are validated, field by field.
    const bad = await call(owner, "PUT", "/admin/settings/carriers", {
      default: "pigeon",
      rules: [{ carrier: "aramex", regions: ["atlantis"], max_weight_grams: 0 }],
      label_size: "a4",
      ship_from: { ...shipFrom, short_address: "nope" },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? {})).toEqual(
      expect.arrayContaining(["default", "label_size", "ship_from.short_address"]),
    );
    // Riyadh parcels up to 5 kg with Aramex; the rest with the local courier.
    const saved = await call(owner, "PUT", "/admin/settings/carriers", {
      default: "courier",
      rules: [{ carrier: "aramex", regions: ["riyadh"], max_weight_grams: 5000 }],
      label_size: "a6",
      ship_from: shipFrom,
    });
    expect(saved.status).toBe(200);
    try {
      const { number } = await twoLineOrder(shopper, 1, 1);
      const made = await call(manager, "POST", `/admin/orders/${number}/shipments`, {});
      expect(made.status).toBe(200);
      const parcel = made.body.data.shipments[0];
      expect(parcel).toMatchObject({ carrier: "aramex", status: "created" });
      expect(parcel.waybill).toMatch(/^\d{11}$/);

      const poll = async () => {
        // The cron asks about a parcel at most every half hour: as if that time had passed.
        await env.DB.prepare("UPDATE shipments SET polled_at = NULL WHERE waybill = ?").bind(parcel.waybill).run();
        // The cron's own call, on the test's bindings (the workers' Env type is the backend's).
        return pollCarriers(env as unknown as BackendBindings);
      };
      const aramex = (status: ShipmentStatus, remit?: number) =>
        call(null, "POST", "/dev/aramex", { waybill: parcel.waybill, status, ...(remit ? { remit } : {}) });
      expect((await aramex("picked_up")).status).toBe(200);
      expect((await poll()).events).toBeGreaterThanOrEqual(1);
      expect((await consoleOrder(manager, number)).shipments[0].status).toBe("picked_up");
      await aramex("out_for_delivery");
      await aramex("delivered", 1000);
      await poll();
      const done = await consoleOrder(manager, number);
      expect(done.status).toBe("delivered");
      expect(done.shipments[0].steps.map((s: { code: string }) => s.code)).toContain("SH005");
      // The cash on Aramex's statement is recorded against its parcel.
      expect(done.shipments[0].remitted).toBe(1000);
      // An unknown waybill is the stand-in's 404, not a crash.
      expect((await call(null, "POST", "/dev/aramex", { waybill: "99999999999", status: "delivered" })).status).toBe(
        404,
      );
    } finally {
      await call(owner, "PUT", "/admin/settings/carriers", {
        default: "courier",
        rules: [],
        label_size: "a6",
        ship_from: shipFrom,
      });
    }
  });
});

describe("the shipping documents from the console", () => {
  /** A console PDF: its status, type and pages read back. */
  async function pdfOf(staff: Staff, path: string) {
    const res = await SELF.fetch(`http://shop.test/backend${path}`, { headers: { ...staff.headers } });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) return { status: res.status, type: res.headers.get("content-type"), pages: [] };
    const doc = await PDFDocument.load(bytes);
    return {
      status: res.status,
      type: res.headers.get("content-type"),
      pages: doc.getPages().map((p) => readPage(doc, p)),
    };
  }

  it("prints one label per parcel whose barcode reads back as its waybill; a pick list and the day's manifest", async () => {
    const [shopper, manager, support] = await Promise.all([newUser(), newStaff("manager"), newStaff("support")]);
    const { number, first } = await twoLineOrder(shopper, 2, 1);
    // The pick list before anything is packed: both lines, every unit.
    const pick = await pdfOf(manager, `/admin/shipments/pick-list.pdf?orders=${number}`);
    expect(pick.status).toBe(200);
    const pickText = pick.pages.flatMap((p) => p.texts.map((t) => t.text)).join("\n");
    // The whole SKU, broken across the column's lines if it must be, never cut short.
    expect(pickText.replace(/\n/g, "")).toContain(first.slug.toUpperCase());
    expect(pickText).not.toContain("...");

    await call(manager, "POST", `/admin/orders/${number}/shipments`, {
      parcels: [{ lines: [{ variant_id: first.id, quantity: 2 }] }],
    });
    const made = await call(manager, "POST", `/admin/orders/${number}/shipments`, {});
    const parcels = made.body.data.shipments as { id: number; waybill: string }[];

    const labels = await pdfOf(manager, `/admin/shipments/labels.pdf?orders=${number}`);
    expect(labels.status).toBe(200);
    expect(labels.type).toBe("application/pdf");
    expect(labels.pages).toHaveLength(2);
    expect(labels.pages.map((p) => readCode128(p).text)).toEqual(parcels.map((p) => p.waybill));
    // A6 by default: 105 × 148 mm.
    expect(Math.round(labels.pages[0]!.width)).toBe(298);
    const one = await pdfOf(manager, `/admin/shipments/labels.pdf?ids=${parcels[1]!.id}&size=4x6`);
    expect(one.pages).toHaveLength(1);
    expect(Math.round(one.pages[0]!.width)).toBe(288);
    expect(readCode128(one.pages[0]!).text).toBe(parcels[1]!.waybill);

    const day = new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 10);
    const manifest = await pdfOf(manager, `/admin/shipments/manifest.pdf?carrier=courier&day=${day}`);
    expect(manifest.status).toBe(200);
    const manifestText = manifest.pages.flatMap((p) => p.texts.map((t) => t.text)).join("\n");
    for (const p of parcels) expect(manifestText).toContain(p.waybill);

    // Support reads no addresses; a bad query is a 422, a parcel of nothing a 404.
    expect((await pdfOf(support, `/admin/shipments/labels.pdf?orders=${number}`)).status).toBe(403);
    expect((await pdfOf(manager, "/admin/shipments/labels.pdf?ids=abc")).status).toBe(422);
    expect((await pdfOf(manager, "/admin/shipments/labels.pdf?ids=999999999")).status).toBe(404);
    expect((await pdfOf(manager, "/admin/shipments/manifest.pdf?carrier=pigeon")).status).toBe(422);
  });
});

describe("the days a missed delivery may be asked for", () => {
  it("are working days after today: no Friday, Saturday or public holiday", () => {
    // Monday 21 September 2026, National Day on the Wednesday.
    expect(attemptDays(new Date("2026-09-21T10:00:00Z"), 3, ["2026-09-23"])).toEqual([
      "2026-09-22",
      "2026-09-24",
      "2026-09-27",
    ]);
    // Late on Thursday in Riyadh is already Friday's shop day: the next is Sunday.
    expect(attemptDays(new Date("2026-12-10T22:30:00Z"), 1)).toEqual(["2026-12-13"]);
  });
});
