import { createHmac, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { consoleHttpSession, newStaffAccount } from "../support/console-browser.ts";
import { builtWorker, jsonApi, TEST_VARS, visitorIp } from "../support/http.ts";

// Late payment on the console's pages: money a gateway took after the order was cancelled, which
// the gateway then refused to give back automatically, is shown on the order page with its refund
// button and on the dashboard, in both languages.
const base = builtWorker().url;
/** The amount the sandbox refuses to refund (SANDBOX_REFUND_DECLINED_AMOUNT of payment-providers/sandbox.ts). */
const SANDBOX_REFUND_DECLINED_AMOUNT = 1313;
let number = "";
let cookie = "";

/** The sandbox's webhook key as the worker derives it from AUTH_PEPPER (payment-providers/index.ts). */
const sandboxKey = createHmac("sha256", TEST_VARS.AUTH_PEPPER).update("sandbox-payments-signing-key").digest("hex");

beforeAll(async () => {
  const email = await newStaffAccount(base, "manager", "late");
  const session = await consoleHttpSession(base, email);
  cookie = session.cookie;
  const staff = jsonApi(base, { authorization: `Bearer ${session.token}`, "cf-connecting-ip": visitorIp() });

  const shopper = jsonApi(base, { "cf-connecting-ip": visitorIp() });
  // A product of one variant: the add names the product alone.
  const product = (
    (await shopper("/backend/products?per_page=12&in_stock=1")).body.data as { id: number; variant_count?: number }[]
  ).find((p) => (p.variant_count ?? 1) === 1)!.id;
  const { guestId } = (await shopper("/api/cart/generate-guest-id")).body as { guestId: string };
  const guest = { "guest-id": guestId, "content-language": "en" };
  expect(
    (
      await shopper("/api/cart/add-product", {
        method: "POST",
        headers: guest,
        body: { productId: product, quantity: 1 },
      })
    ).status,
  ).toBe(200);
  const placed = await shopper("/backend/checkout", {
    method: "POST",
    headers: guest,
    body: {
      idempotency_key: randomUUID(),
      email: `late-${guestId.slice(0, 8)}@example.com`,
      address: { name: "Late Payer", phone: "+966512345678", city: "Riyadh", district: "Olaya", street: "Tahlia" },
      shipping_method: "standard",
      payment_method: "card",
    },
  });
  expect(placed.status).toBe(201);
  number = placed.body.data.number;
  // The shopper is on the gateway's page…
  const started = await shopper(`/backend/payments/${number}/start`, {
    method: "POST",
    headers: guest,
    body: { return_url: "/en/payment-status" },
  });
  expect(started.status).toBe(200);
  // …while staff cancel the order.
  expect((await staff(`/backend/admin/orders/${number}/cancel`, { method: "POST", body: {} })).status).toBe(200);
  // Then the gateway reports the money taken: an amount it will refuse to refund automatically.
  const body = JSON.stringify({
    id: `evt_${randomUUID().replace(/-/g, "")}`,
    type: "payment.paid",
    data: {
      payment_id: started.body.data.payment_id,
      provider_ref: null,
      status: "paid",
      message: null,
      three_ds: null,
      amount: SANDBOX_REFUND_DECLINED_AMOUNT,
      currency: "SAR",
    },
  });
  const hook = await fetch(`${base}/backend/payments/webhook/sandbox`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-signature": createHmac("sha256", sandboxKey).update(body).digest("hex"),
    },
    body,
  });
  expect(await hook.json()).toMatchObject({ data: { outcome: "paid_late" } });
}, 120_000);

const page = async (path: string) => {
  const res = await fetch(`${base}${path}`, { headers: { cookie }, redirect: "manual" });
  expect(res.status).toBe(200);
  return res.text();
};

describe("late payment on the console", () => {
  for (const [locale, text] of [
    [
      "en",
      { title: "Payments to refund", refund: "Refund", owed: "Still to refund", provider: "reported by the provider" },
    ],
    [
      "ar",
      { title: "مدفوعات يجب استردادها", refund: "استرداد", owed: "لم يُسترد بعد", provider: "سبب أبلغ عنه مزوّد الدفع" },
    ],
  ] as const) {
    it(`${locale}: late payment: the order page shows the money owed with its refund button, and the dashboard lists the order`, async () => {
      const order = await page(`/${locale}/admin/orders/${number}`);
      const panel = order.slice(order.indexOf("data-late-payments"));
      expect(panel).toContain(text.title);
      expect(panel).toContain(text.owed);
      // The gateway's refusal is its own words, labelled as such in the reader's language.
      expect(panel).toContain(text.provider);
      expect(panel).toMatch(new RegExp(`<button[^>]*>${text.refund}`));
      const board = await page(`/${locale}/admin`);
      expect(board).toContain(text.title);
      expect(board).toContain(number);
    });
  }
});
