import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/backend/env";
import { backendApp } from "../../worker/backend";
import { PaymentRefused } from "../../worker/backend/services/payments/providers";
import {
  tabbyProvider,
  type TabbyPayment,
  type TabbySession,
} from "../../worker/backend/services/payments/providers/tabby";
import { loadTabby } from "../../worker/backend/services/payments/providers/tabby-stand-in";
import { findPayment, receiveWebhook, startPayment } from "../../worker/backend/services/payments/payments";
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

// Tabby's "pay in 4" behind the payment-provider interface. In test the real adapter (tabby.ts)
// talks to the offline stand-in of Tabby's checkout API, whose hosted page takes Tabby's test code
// 8888 and follows its published test rules (+966500000002 is refused at pre-scoring;
// otp.rejected@tabby.ai is rejected after the code).

const RETURN = "/en/payment-status";
const HEADER = "x-webhook-secret";
const SECRET = "development-tabby-webhook-secret";

async function tabbyOrder(shopper: Shopper, opts: { price?: number; phone?: string; email?: string } = {}) {
  const product = await createProduct({ stock: 5, price: opts.price ?? 509_900 });
  const placed = await checkoutWith(shopper, product.id, 1, {
    payment_method: "tabby",
    address: { ...address, phone: opts.phone ?? address.phone },
    ...(opts.email ? { email: opts.email } : {}),
  });
  expect(placed.status).toBe(201);
  return { product, number: placed.body.data.number as string, total: placed.body.data.total as number };
}

const paymentOf = async (shopper: Shopper, id: string, query = "") =>
  (await call(shopper, "GET", `/payments/${id}/status${query}`)).body.data;

describe("Tabby", () => {
  it("pays an order: the session, the hosted page with the code, the webhook, captured in full at once", async () => {
    const guest = await newGuest();
    const { product, number, total } = await tabbyOrder(guest);
    const started = await start(guest, number);
    expect(started.status).toBe(200);
    const { payment_id, redirect_url } = started.body.data;
    expect(redirect_url).toMatch(/^\/backend\/payments\/stand-in\/tabby\/[0-9a-f-]{36}\?lang=en$/);
    const ref = (await findPayment(env.DB, payment_id))!.provider_ref!;
    const atTabby = (await loadTabby(env.KV, ref))!;
    // What the adapter sent, in Tabby's shape: decimal strings, the buyer, the three return addresses.
    expect(atTabby.payment).toMatchObject({ status: "CREATED", amount: (total / 100).toFixed(2), currency: "SAR" });
    expect(atTabby.payment.buyer).toMatchObject({ phone: address.phone, email: guest.email });
    expect(atTabby.urls.success).toMatch(new RegExp(`/en/payment-status\\?payment_id=${payment_id}&order=${number}$`));
    expect(atTabby.urls.cancel).toMatch(/&tabby=cancel$/);
    expect(atTabby.urls.failure).toMatch(/&tabby=failure$/);

    const page = await SELF.fetch(`http://shop.test${redirect_url}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<label for="tabby-otp">');
    expect(html).toContain("SAR\u00a01,274.75");

    const wrong = await submit(redirect_url, { otp: "1234", email: guest.email!, action: "pay" });
    expect(wrong.status).toBe(422);
    expect((await findPayment(env.DB, payment_id))!.status).toBe("initiated");

    const paid = await submit(redirect_url, { otp: "8888", email: guest.email!, action: "pay" });
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(atTabby.urls.success);
    expect(await paymentOf(guest, payment_id)).toMatchObject({ status: "paid", order_status: "paid" });
    const order = (await call(guest, "GET", `/orders/${number}`)).body.data;
    expect(order).toMatchObject({ status: "paid", payment_method: "tabby" });
    const closed = (await loadTabby(env.KV, ref))!.payment;
    expect(closed.status).toBe("CLOSED");
    expect(closed.captures?.map((c) => c.amount)).toEqual([(total / 100).toFixed(2)]);
    expect(await stockOf(product.id)).toBe(4);
  });

  it("a shopper Tabby refuses at pre-scoring is told so in their language, and pays by card instead", async () => {
    const guest = await newGuest("ar");
    const { number } = await tabbyOrder(guest, { phone: "+966500000002" });
    const refused = await start(guest, number);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe("لا تستطيع تابي قبول عملية الشراء هذه الآن. يرجى اختيار طريقة دفع أخرى.");
    expect(refused.body.errors?.method).toEqual([refused.body.message]);
    expect((await call(guest, "GET", `/orders/${number}`)).body.data.status).toBe("pending_payment");
    const byCard = await start(guest, number, { method: "card" });
    expect(byCard.status).toBe(200);
    expect(byCard.body.data.redirect_url).toMatch(/^\/backend\/payments\/sandbox\//);
  });

  it("an amount above the shop's Tabby limit is refused at pre-scoring, and not offered at checkout", async () => {
    const guest = await newGuest();
    const product = await createProduct({ stock: 5, price: 2_000_000 });
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const options = (await call(guest, "GET", "/checkout/options")).body.data;
    // Tamara's own limits (to 20,000 SAR by default) still hold it; cash on delivery's (5,000) do not.
    expect(options.payment_methods.map((m: { id: string }) => m.id)).toEqual(["card", "stcpay", "tamara"]);
    const { number } = await tabbyOrder(await newGuest(), { price: 2_000_000 });
    expect(number).toBeTruthy();
    const lowered = await backendApp.request(
      "/checkout/options",
      { headers: { ...guest.headers, accept: "application/json" } },
      { ...env, TABBY_MAX_SAR: "30000" } as Env,
    );
    const offered = ((await lowered.json()) as { data: { payment_methods: { id: string }[] } }).data.payment_methods;
    expect(offered.map((m) => m.id)).toEqual(["card", "stcpay", "tabby", "tamara"]);
  });

  it("rejected after the code, the payment fails and gives the stock back; a cancel fails it on return", async () => {
    const guest = await newGuest();
    const { product, number } = await tabbyOrder(guest, { email: "otp.rejected@tabby.ai" });
    const first = (await start(guest, number)).body.data;
    const rejected = await submit(first.redirect_url, { otp: "8888", email: "otp.rejected@tabby.ai", action: "pay" });
    expect(rejected.headers.get("location")).toMatch(/&tabby=failure$/);
    const failed = await paymentOf(guest, first.payment_id);
    expect(failed).toMatchObject({ status: "failed", order_status: "payment_failed" });
    expect(failed.message).toBe("Tabby did not approve this payment. Please choose another way to pay.");
    expect(await stockOf(product.id)).toBe(5);

    const second = (await start(guest, number)).body.data;
    const cancelled = await submit(second.redirect_url, { action: "cancel" });
    expect(cancelled.headers.get("location")).toMatch(/&tabby=cancel$/);
    // Tabby leaves a cancelled payment CREATED until it expires: the return address says what happened.
    expect((await paymentOf(guest, second.payment_id)).status).toBe("pending");
    expect(await paymentOf(guest, second.payment_id, "?tabby=cancel")).toMatchObject({ status: "failed" });
    // The address can fail a payment, never pay one.
    const third = (await start(guest, number)).body.data;
    expect((await paymentOf(guest, third.payment_id, "?tabby=success&status=paid")).status).toBe("pending");
  });

  it("refunds part and then the rest from the console, and never more than was paid", async () => {
    const shopper = await newUser();
    const manager = await newStaff("manager");
    const { number, total } = await tabbyOrder(shopper);
    const { redirect_url, payment_id } = (await start(shopper, number)).body.data;
    await submit(redirect_url, { otp: "8888", email: shopper.email!, action: "pay" });
    const part = await call(manager, "POST", `/admin/orders/${number}/refund`, { amount: 27_475, reason: "Scratched" });
    expect(part.status).toBe(200);
    const ref = (await findPayment(env.DB, payment_id))!.provider_ref!;
    expect((await loadTabby(env.KV, ref))!.payment.refunds?.map((r) => [r.amount, r.reason])).toEqual([
      ["274.75", "Scratched"],
    ]);
    const rest = await call(manager, "POST", `/admin/orders/${number}/refund`, {
      amount: total - 27_475,
      reason: "Returned",
    });
    expect(rest.status).toBe(200);
    const refunds = (await loadTabby(env.KV, ref))!.payment.refunds!;
    expect(refunds.reduce((sum, r) => sum + Math.round(Number(r.amount) * 100), 0)).toBe(total);
    // Nothing is left to refund: the order refuses before Tabby is asked.
    const more = await call(manager, "POST", `/admin/orders/${number}/refund`, { amount: 100, reason: "Again" });
    expect(more.status).toBe(409);
    expect((await loadTabby(env.KV, ref))!.payment.refunds).toHaveLength(2);
  });
});

describe("Tabby's webhook: verified, idempotent and bound to Tabby", () => {
  async function authorisedAtTabby() {
    const guest = await newGuest();
    const { number } = await tabbyOrder(guest);
    const started = (await start(guest, number)).body.data;
    const ref = (await findPayment(env.DB, started.payment_id))!.provider_ref!;
    return { guest, number, paymentId: started.payment_id as string, ref };
  }
  const post = (body: string, headers: Record<string, string>) =>
    SELF.fetch("http://shop.test/backend/payments/webhook/tabby", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });

  it("refuses a webhook without the registered header value, and changes nothing", async () => {
    const { paymentId, ref } = await authorisedAtTabby();
    const body = JSON.stringify({ id: ref, status: "closed", amount: "5099.00", currency: "SAR" });
    expect((await post(body, {})).status).toBe(401);
    expect((await post(body, { [HEADER]: "guessed" })).status).toBe(401);
    expect((await findPayment(env.DB, paymentId))!.status).toBe("initiated");
  });

  it("a well-formed 'closed' the API does not confirm pays nothing; a replay of a real one is applied once", async () => {
    const { paymentId, ref, guest } = await authorisedAtTabby();
    const body = JSON.stringify({ id: ref, status: "closed", amount: "5099.00", currency: "SAR" });
    // The header is right but Tabby's API says the payment is still CREATED: nothing is paid.
    const unconfirmed = await post(body, { [HEADER]: SECRET });
    expect(unconfirmed.status).toBe(200);
    expect(((await unconfirmed.json()) as { data: { outcome: string } }).data.outcome).toBe("pending");
    expect((await findPayment(env.DB, paymentId))!.status).toBe("initiated");

    const stored = (await loadTabby(env.KV, ref))!;
    stored.payment.status = "AUTHORIZED";
    await env.KV.put(`stand-in:tabby:payment:${ref}`, JSON.stringify(stored));
    const authorised = JSON.stringify({ id: ref, status: "authorized", amount: "5099.00", currency: "SAR" });
    const applied = (await (await post(authorised, { [HEADER]: SECRET })).json()) as { data: Record<string, unknown> };
    expect(applied.data).toMatchObject({ replayed: false, outcome: "paid" });
    const replay = (await (await post(authorised, { [HEADER]: SECRET })).json()) as { data: Record<string, unknown> };
    expect(replay.data).toMatchObject({ replayed: true, outcome: "unchanged" });
    expect((await loadTabby(env.KV, ref))!.payment.captures).toHaveLength(1);
    expect((await paymentOf(guest, paymentId)).status).toBe("paid");
  });

  it("a Tabby webhook cannot settle another provider's payment, nor another provider's a Tabby one", async () => {
    const guest = await newGuest();
    const product = await createProduct({ stock: 3, price: 10_000 });
    const placed = await checkoutWith(guest, product.id, 1);
    const card = await startPayment(
      env.DB,
      env,
      { userId: null, guestId: guest.guestId! },
      placed.body.data.number,
      RETURN,
      "en",
      "https://shop.example",
    );
    const sandboxRef = (await findPayment(env.DB, card.payment_id))!.provider_ref!;
    const claim = JSON.stringify({ id: sandboxRef, status: "closed", amount: "100.00", currency: "SAR" });
    const outcome = await receiveWebhook(env.DB, env, "tabby", claim, new Headers({ [HEADER]: SECRET }));
    expect(outcome.outcome).toBe("unknown");
    expect((await findPayment(env.DB, card.payment_id))!.status).toBe("initiated");

    const { paymentId } = await authorisedAtTabby();
    const moyasarLike = JSON.stringify({
      id: "evt_x",
      type: "payment_paid",
      data: { id: "x", status: "paid", metadata: { payment_id: paymentId } },
    });
    const res = await SELF.fetch("http://shop.test/backend/payments/webhook/moyasar", {
      method: "POST",
      headers: { "content-type": "application/json", [HEADER]: SECRET },
      body: moyasarLike,
    });
    expect(res.status).toBe(401);
    expect((await findPayment(env.DB, paymentId))!.status).toBe("initiated");
  });
});

describe("the Tabby adapter speaks Tabby's checkout API as documented", () => {
  // Recorded from Tabby's API reference: a created session, and a session refused at pre-scoring.
  const created: TabbySession = {
    id: "9d6f8c4e-5b0a-4a3e-9c1d-2b7e6f5a4c3d",
    status: "created",
    payment: { id: "1b6f0c55-8d83-4a6f-9a0f-6c3b2d1e0f9a", status: "CREATED", amount: "5099.00", currency: "SAR" },
    configuration: {
      available_products: {
        installments: [{ web_url: "https://checkout.tabby.ai/?sessionId=9d6f8c4e&apiKey=pk_test" }],
      },
      products: { installments: { is_available: true, rejection_reason: null } },
    },
  };
  const record = {
    id: "pay_doc",
    order_id: 1,
    order_number: "SQ-1",
    provider: "tabby",
    method: "tabby" as const,
    status: "initiated" as const,
    amount: 509_900,
    currency: "SAR",
    provider_ref: created.payment.id,
    return_url: "/ar/payment-status?payment_id=pay_doc&order=SQ-1",
  };
  const order = {
    buyer: { name: "Sara", email: "otp.success@tabby.ai", phone: "+966500000001" },
    address: { city: "Riyadh", address: "2929, King Fahd Road, Olaya", zip: "12211" },
    items: [{ title: "Phone", quantity: 1, unit_price: 509_900, reference_id: "SKU-1" }],
    shipping: 0,
    vat: 66_509,
    discount: 0,
    registeredSince: "2026-01-01T00:00:00.000Z",
  };

  function recording(answer: (url: string) => unknown) {
    const calls: { url: string; method: string; auth: string | null; body: Record<string, unknown> | null }[] = [];
    const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      calls.push({
        url,
        method: init?.method ?? "GET",
        auth: new Headers(init?.headers).get("authorization"),
        body: init?.body ? JSON.parse(String(init.body)) : null,
      });
      return Response.json(answer(url));
    }) as typeof fetch;
    return {
      calls,
      provider: tabbyProvider({ secretKey: "sk_test_doc", merchantCode: "souq_sa", webhookSecret: "w", fetcher }),
    };
  }

  it("creates the session with Bearer auth, decimal amounts and the three return addresses", async () => {
    const { calls, provider } = recording(() => created);
    const started = await provider.start({
      payment: { ...record, provider_ref: null },
      email: "otp.success@tabby.ai",
      lang: "ar",
      origin: "https://shop.example",
      backendBase: "/backend",
      returnPath: record.return_url,
      order,
    });
    expect(started).toEqual({
      redirectUrl: created.configuration!.available_products!.installments![0].web_url,
      providerRef: created.payment.id,
    });
    expect(calls[0]).toMatchObject({
      url: "https://api.tabby.ai/api/v2/checkout",
      method: "POST",
      auth: "Bearer sk_test_doc",
    });
    expect(calls[0].body).toMatchObject({
      lang: "ar",
      merchant_code: "souq_sa",
      payment: {
        amount: "5099.00",
        currency: "SAR",
        buyer: order.buyer,
        shipping_address: order.address,
        order: {
          reference_id: "SQ-1",
          tax_amount: "665.09",
          items: [{ title: "Phone", unit_price: "5099.00", quantity: 1 }],
        },
        buyer_history: { registered_since: order.registeredSince, loyalty_level: 0 },
      },
      merchant_urls: {
        success: "https://shop.example/ar/payment-status?payment_id=pay_doc&order=SQ-1",
        cancel: "https://shop.example/ar/payment-status?payment_id=pay_doc&order=SQ-1&tabby=cancel",
        failure: "https://shop.example/ar/payment-status?payment_id=pay_doc&order=SQ-1&tabby=failure",
      },
    });
  });

  it("reads a rejected session as a refusal with Tabby's reason", async () => {
    const { provider } = recording(() => ({
      ...created,
      status: "rejected",
      configuration: {
        available_products: {},
        products: { installments: { is_available: false, rejection_reason: "order_amount_too_high" } },
      },
    }));
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
    await expect(attempt).rejects.toMatchObject({ reason: "order_amount_too_high" });
  });

  it("captures an authorised payment in full, then refunds by amount", async () => {
    let status: TabbyPayment["status"] = "AUTHORIZED";
    const { calls, provider } = recording((url) => {
      if (url.endsWith("/captures")) status = "CLOSED";
      return { ...created.payment, status, refunds: url.endsWith("/refunds") ? [{ id: "rf_1", amount: "10.00" }] : [] };
    });
    expect(await provider.verifyReturn(record, new URLSearchParams())).toMatchObject({
      status: "paid",
      amount: 509_900,
    });
    expect(await provider.refund({ ...record, status: "paid" }, 1000, "Scratched")).toEqual({
      status: "succeeded",
      providerRef: "rf_1",
      message: null,
    });
    expect(calls.map((c) => `${c.method} ${c.url.replace("https://api.tabby.ai", "")}`)).toEqual([
      `GET /api/v2/payments/${created.payment.id}`,
      `POST /api/v2/payments/${created.payment.id}/captures`,
      `POST /api/v2/payments/${created.payment.id}/refunds`,
    ]);
    expect(calls[1].body).toEqual({ amount: "5099.00", reference_id: "pay_doc" });
    expect(calls[2].body).toEqual({ amount: "10.00", reason: "Scratched" });
  });
});
