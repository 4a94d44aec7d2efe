import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sign } from "hono/jwt";
import { describe, expect, it } from "vitest";
import { PaymentRefused } from "../../worker/backend/services/payments/providers";
import { tamaraProvider, type TamaraOrder } from "../../worker/backend/services/payments/providers/tamara";
import { loadTamara, tamaraNotification } from "../../worker/backend/services/payments/providers/tamara-stand-in";
import { findPayment } from "../../worker/backend/services/payments/payments";
import {
  address,
  call,
  checkoutWith,
  createProduct,
  newGuest,
  newUser,
  stockOf,
  type Shopper,
} from "../support/commerce";
import { newStaff } from "../support/console";
import { startPaying as start, submitForm as submit } from "../support/orders";

// Tamara's "split in 4" behind the payment-provider interface. In test the real adapter (tamara.ts)
// talks to the offline stand-in of Tamara's online checkout API, whose hosted page shows its code
// as Tamara's sandbox does and declines Tamara's published test number 526422337.

const TOKEN = "development-tamara-notification-token";

async function tamaraOrder(shopper: Shopper, opts: { price?: number; phone?: string } = {}) {
  const product = await createProduct({ stock: 5, price: opts.price ?? 509_900 });
  const placed = await checkoutWith(shopper, product.id, 1, {
    payment_method: "tamara",
    address: { ...address, phone: opts.phone ?? "+966544337866" },
  });
  expect(placed.status).toBe(201);
  return { product, number: placed.body.data.number as string, total: placed.body.data.total as number };
}

const statusOf = async (shopper: Shopper, id: string, query = "") =>
  (await call(shopper, "GET", `/payments/${id}/status${query}`)).body.data;

/** Started and on Tamara's page: the page's path, our payment, Tamara's order and its code. */
async function onTamaraPage(shopper: Shopper, number: string) {
  const started = (await start(shopper, number)).body.data;
  const ref = (await findPayment(env.DB, started.payment_id))!.provider_ref!;
  const stored = (await loadTamara(env.KV, ref))!;
  return { page: started.redirect_url as string, paymentId: started.payment_id as string, ref, code: stored.code };
}

describe("Tamara", () => {
  it("pays an order: pre-check, session, the page's code, the signed webhook, authorised and captured at once", async () => {
    const guest = await newGuest();
    const { product, number, total } = await tamaraOrder(guest);
    const { page, paymentId, ref, code } = await onTamaraPage(guest, number);
    expect(page).toMatch(/^\/backend\/payments\/stand-in\/tamara\/[0-9a-f-]{36}\?lang=en$/);
    const html = await (await SELF.fetch(`http://shop.test${page}`)).text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(code);
    expect(html).toContain("SAR\u00a01,274.75");

    expect((await submit(page, { phone: "544337866", code: "0000", action: "pay" })).status).toBe(422);
    const paid = await submit(page, { phone: "544337866", code, action: "pay" });
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get("location")!);
    expect(back.searchParams.get("paymentStatus")).toBe("approved");
    expect(await statusOf(guest, paymentId, back.search.replace(/payment_id=[^&]*&order=[^&]*&?/, ""))).toMatchObject({
      status: "paid",
      order_status: "paid",
      method: "tamara",
    });
    const at = (await loadTamara(env.KV, ref))!.order;
    expect(at.status).toBe("fully_captured");
    expect(at.captured_amount).toEqual({ amount: total / 100, currency: "SAR" });
    expect(await stockOf(product.id)).toBe(4);
  });

  it("declined at Tamara's checkout: the payment fails with Tamara's word, the stock goes back, the card pays", async () => {
    const guest = await newGuest("ar");
    const { product, number } = await tamaraOrder(guest, { phone: "+966526422337" });
    const { page, paymentId, code } = await onTamaraPage(guest, number);
    const declined = await submit(page, { phone: "526422337", code, action: "pay" });
    const back = new URL(declined.headers.get("location")!);
    expect(back.searchParams.get("paymentStatus")).toBe("declined");
    const failed = await statusOf(guest, paymentId, "?paymentStatus=declined");
    expect(failed).toMatchObject({ status: "failed", order_status: "payment_failed", method: "tamara" });
    expect(failed.message).toBe("لم توافق تمارا على هذه الدفعة. يرجى اختيار طريقة دفع أخرى.");
    expect(await stockOf(product.id)).toBe(5);
    const byCard = await start(guest, number, { method: "card" });
    expect(byCard.status).toBe(200);
    expect(await stockOf(product.id)).toBe(4);
  });

  it("a cancel fails the payment on return; the return address can fail a payment, never pay one", async () => {
    const guest = await newGuest();
    const { number } = await tamaraOrder(guest);
    const first = await onTamaraPage(guest, number);
    const cancelled = await submit(first.page, { action: "cancel" });
    expect(new URL(cancelled.headers.get("location")!).searchParams.get("paymentStatus")).toBe("canceled");
    expect((await statusOf(guest, first.paymentId)).status).toBe("pending");
    expect((await statusOf(guest, first.paymentId, "?paymentStatus=canceled")).status).toBe("failed");
    const second = await onTamaraPage(guest, number);
    expect((await statusOf(guest, second.paymentId, "?paymentStatus=approved")).status).toBe("pending");
  });

  it("the pre-check's no (outside the shop's Tamara limits) is told before any session", async () => {
    const guest = await newGuest();
    const { number } = await tamaraOrder(guest, { price: 5_000 });
    const refused = await start(guest, number);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(
      "Tamara can't offer instalments for this purchase. Please choose another way to pay.",
    );
  });

  it("refunds part and then the rest from the console", async () => {
    const shopper = await newUser();
    const manager = await newStaff("manager");
    const { number, total } = await tamaraOrder(shopper);
    const { page, ref, code } = await onTamaraPage(shopper, number);
    await submit(page, { phone: "544337866", code, action: "pay" });
    expect(
      (await call(manager, "POST", `/admin/orders/${number}/refund`, { amount: 10_000, reason: "Scratch" })).status,
    ).toBe(200);
    expect((await loadTamara(env.KV, ref))!.order).toMatchObject({
      status: "partially_refunded",
      refunded_amount: { amount: 100 },
    });
    expect(
      (await call(manager, "POST", `/admin/orders/${number}/refund`, { amount: total - 10_000, reason: "Returned" }))
        .status,
    ).toBe(200);
    expect((await loadTamara(env.KV, ref))!.order.status).toBe("fully_refunded");
  });
});

describe("Tamara's webhook: a JWT of the notification token, idempotent, bound to Tamara", () => {
  const post = (body: string, authorization?: string) =>
    SELF.fetch("http://shop.test/backend/payments/webhook/tamara", {
      method: "POST",
      headers: { "content-type": "application/json", ...(authorization ? { authorization } : {}) },
      body,
    });

  it("refuses a webhook without a token, with one signed by another key, or expired", async () => {
    const guest = await newGuest();
    const { number } = await tamaraOrder(guest);
    const { ref, paymentId } = await onTamaraPage(guest, number);
    const body = JSON.stringify({ order_id: ref, event_type: "order_approved" });
    expect((await post(body)).status).toBe(401);
    const now = Math.floor(Date.now() / 1000);
    expect((await post(body, `Bearer ${await sign({ iat: now, exp: now + 60 }, "guessed", "HS256")}`)).status).toBe(
      401,
    );
    expect((await post(body, `Bearer ${await sign({ iat: now - 600, exp: now - 300 }, TOKEN, "HS256")}`)).status).toBe(
      401,
    );
    expect((await findPayment(env.DB, paymentId))!.status).toBe("initiated");
  });

  it("a signed 'approved' Tamara's API does not confirm pays nothing; a real one is applied once, then replays change nothing", async () => {
    const guest = await newGuest();
    const { number } = await tamaraOrder(guest);
    const { ref, paymentId } = await onTamaraPage(guest, number);
    const order = { order_id: ref, order_reference_id: paymentId } as TamaraOrder;
    const early = await tamaraNotification(TOKEN, order, "order_approved");
    const unconfirmed = (await (await post(early.body, early.authorization)).json()) as { data: { outcome: string } };
    expect(unconfirmed.data.outcome).toBe("pending");

    const stored = (await loadTamara(env.KV, ref))!;
    stored.order.status = "approved";
    await env.KV.put(`stand-in:tamara:order:${ref}`, JSON.stringify(stored));
    const note = await tamaraNotification(TOKEN, order, "order_authorised");
    const applied = (await (await post(note.body, note.authorization)).json()) as { data: Record<string, unknown> };
    expect(applied.data).toMatchObject({ replayed: false, outcome: "paid" });
    const replay = (await (await post(note.body, note.authorization)).json()) as { data: Record<string, unknown> };
    expect(replay.data).toMatchObject({ replayed: true, outcome: "unchanged" });
    expect((await loadTamara(env.KV, ref))!.order.status).toBe("fully_captured");
  });

  it("a Tamara webhook cannot settle a Tabby payment", async () => {
    const guest = await newGuest();
    const product = await createProduct({ stock: 3, price: 50_000 });
    const placed = await checkoutWith(guest, product.id, 1, { payment_method: "tabby" });
    const started = (await start(guest, placed.body.data.number)).body.data;
    const tabbyRef = (await findPayment(env.DB, started.payment_id))!.provider_ref!;
    const note = await tamaraNotification(TOKEN, { order_id: tabbyRef } as TamaraOrder, "order_approved");
    const answer = (await (await post(note.body, note.authorization)).json()) as { data: { outcome: string } };
    expect(answer.data.outcome).toBe("unknown");
    expect((await findPayment(env.DB, started.payment_id))!.status).toBe("initiated");
  });
});

describe("the Tamara adapter speaks Tamara's API as documented", () => {
  const record = {
    id: "pay_doc",
    order_id: 1,
    order_number: "SQ-1",
    provider: "tamara",
    method: "tamara" as const,
    status: "initiated" as const,
    amount: 509_900,
    currency: "SAR",
    provider_ref: "b9e8f3a0-8a5e-4d1f-9f0e-3c2b1a0d9e8f",
    return_url: "/ar/payment-status?payment_id=pay_doc&order=SQ-1",
  };
  const order = {
    buyer: { name: "Sara Al Harbi", email: "sara@example.com", phone: "+966544337866" },
    address: { city: "Riyadh", address: "2929, King Fahd Road, Olaya", zip: "12211" },
    items: [{ title: "Phone", quantity: 1, unit_price: 509_900, reference_id: "SKU-1" }],
    shipping: 0,
    vat: 66_509,
    discount: 0,
    registeredSince: "2026-01-01T00:00:00.000Z",
  };

  function recording(answer: (path: string) => unknown) {
    const calls: { path: string; method: string; auth: string | null; body: Record<string, unknown> | null }[] = [];
    const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      calls.push({
        path: url.pathname,
        method: init?.method ?? "GET",
        auth: new Headers(init?.headers).get("authorization"),
        body: init?.body ? JSON.parse(String(init.body)) : null,
      });
      return Response.json(answer(url.pathname));
    }) as typeof fetch;
    return { calls, provider: tamaraProvider({ apiToken: "tok", notificationToken: "n", fetcher }) };
  }

  it("asks the pre-check, then creates the session with amounts as numbers and the notification address", async () => {
    const { calls, provider } = recording((path) =>
      path.endsWith("pre-check")
        ? { has_available_payment_options: true, single_checkout_enabled: false, available_payment_labels: [] }
        : {
            order_id: record.provider_ref,
            checkout_id: "c1",
            checkout_url: "https://checkout.tamara.co/c1",
            status: "new",
          },
    );
    const started = await provider.start({
      payment: { ...record, provider_ref: null },
      email: "",
      lang: "ar",
      origin: "https://shop.example",
      backendBase: "/backend",
      returnPath: record.return_url,
      order,
    });
    expect(started).toEqual({ redirectUrl: "https://checkout.tamara.co/c1", providerRef: record.provider_ref });
    expect(calls[0]).toEqual({
      path: "/checkout/payment-options-pre-check",
      method: "POST",
      auth: "Bearer tok",
      body: {
        country: "SA",
        order_value: { amount: 5099, currency: "SAR" },
        phone_number: "966544337866",
        is_vip: false,
      },
    });
    expect(calls[1].body).toMatchObject({
      order_reference_id: "pay_doc",
      order_number: "SQ-1",
      total_amount: { amount: 5099, currency: "SAR" },
      tax_amount: { amount: 665.09, currency: "SAR" },
      country_code: "SA",
      payment_type: "PAY_BY_INSTALMENTS",
      instalments: 4,
      locale: "ar_SA",
      consumer: { first_name: "Sara", last_name: "Al Harbi", phone_number: "966544337866", email: "sara@example.com" },
      merchant_url: { notification: "https://shop.example/backend/payments/webhook/tamara" },
    });
  });

  it("reads a pre-check without options as a refusal, before any session", async () => {
    const { calls, provider } = recording(() => ({ has_available_payment_options: false }));
    const attempt = provider.start({
      payment: record,
      email: "",
      lang: "en",
      origin: "https://s.example",
      backendBase: "/backend",
      returnPath: "/",
      order,
    });
    await expect(attempt).rejects.toBeInstanceOf(PaymentRefused);
    expect(calls).toHaveLength(1);
  });

  it("authorises an approved order and captures it in full, then refunds by amount", async () => {
    let status = "approved";
    const { calls, provider } = recording((path) => {
      if (path.endsWith("/authorise")) status = "authorised";
      if (path === "/payments/capture") status = "fully_captured";
      if (path.includes("simplified-refund"))
        return { refund_id: "rf_1", order_id: record.provider_ref, status: "partially_refunded" };
      return {
        order_id: record.provider_ref,
        order_reference_id: "pay_doc",
        status,
        total_amount: { amount: 5099, currency: "SAR" },
      };
    });
    expect(await provider.verifyReturn(record, new URLSearchParams())).toMatchObject({
      status: "paid",
      amount: 509_900,
    });
    expect(await provider.refund({ ...record, status: "paid" }, 1000, "Scratch")).toEqual({
      status: "succeeded",
      providerRef: "rf_1",
      message: null,
    });
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET /merchants/orders/${record.provider_ref}`,
      `POST /orders/${record.provider_ref}/authorise`,
      `GET /merchants/orders/${record.provider_ref}`,
      "POST /payments/capture",
      `GET /merchants/orders/${record.provider_ref}`,
      `POST /payments/simplified-refund/${record.provider_ref}`,
    ]);
    expect(calls[3].body).toMatchObject({
      order_id: record.provider_ref,
      total_amount: { amount: 5099, currency: "SAR" },
    });
    expect(calls[5].body).toEqual({ total_amount: { amount: 10, currency: "SAR" }, comment: "Scratch" });
  });
});
