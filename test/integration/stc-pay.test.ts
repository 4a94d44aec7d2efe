import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/backend/env";
import { saudiMobile } from "../../contract/inputs";
import { enabledPaymentMethods, moyasarGateway } from "../../worker/backend/services/payments/providers";
import { moyasarProvider, type MoyasarPayment } from "../../worker/backend/services/payments/providers/moyasar";
import {
  MOYASAR_STAND_IN_BASE,
  moyasarStandIn,
} from "../../worker/backend/services/payments/providers/moyasar-stand-in";
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
import { dropAll } from "../support/d1-schema";
import { backendApp } from "../../worker/backend";

// STC Pay through Moyasar's payments API, on the shop's own page: the mobile number, then the code
// STC Pay sends. In test the real adapter (moyasar.ts) talks to the offline stand-in of Moyasar's
// API (moyasar-stand-in.ts), which follows Moyasar's published STC Pay sandbox numbers and codes.

const RETURN = "/en/payment-status";

async function stcOrder(shopper: Shopper, opts: { stock?: number; price?: number } = {}) {
  const product = await createProduct({ stock: opts.stock ?? 5, price: opts.price ?? 50000 });
  const placed = await checkoutWith(shopper, product.id, 1, { payment_method: "stcpay" });
  expect(placed.status).toBe(201);
  const number = placed.body.data.number as string;
  const started = await call(shopper, "POST", `/payments/${number}/start`, { return_url: RETURN });
  expect(started.status).toBe(200);
  return { product, number, total: placed.body.data.total as number, start: started.body.data };
}

const mobileStep = (shopper: Shopper, paymentId: string, mobile: string) =>
  call(shopper, "POST", `/payments/${paymentId}/stcpay`, { mobile });
const otpStep = (shopper: Shopper, paymentId: string, otp: string) =>
  call(shopper, "POST", `/payments/${paymentId}/stcpay/otp`, { otp });

const orderOf = async (shopper: Shopper, number: string) => (await call(shopper, "GET", `/orders/${number}`)).body.data;

describe("STC Pay", () => {
  it("is offered at checkout with its own mark, in both languages", async () => {
    for (const [lang, name] of [
      ["en", "Pay with STC Pay"],
      ["ar", "الدفع عبر STC Pay"],
    ] as const) {
      const guest = await newGuest(lang);
      const options = (await call(guest, "GET", "/checkout/options")).body.data;
      expect(options.payment_methods.map((m: { id: string }) => m.id)).toEqual([
        "card",
        "stcpay",
        "tabby",
        "tamara",
        "cod",
      ]);
      expect(options.payment_methods[1]).toEqual({ id: "stcpay", name, marks: ["stcpay"] });
    }
  });

  it("pays an order: the start asks for the number, the number sends a code, the code pays", async () => {
    const guest = await newGuest();
    const { product, number, total, start } = await stcOrder(guest);
    expect(start).toMatchObject({ method: "stcpay", step: "stcpay", mobile: "0512345678" });
    expect(start.redirect_url).toBe(`${RETURN}?payment_id=${start.payment_id}&order=${number}`);
    expect(await stockOf(product.id)).toBe(4);

    const sent = await mobileStep(guest, start.payment_id, "+966 51 234 5678");
    expect(sent.status).toBe(200);
    expect(sent.body.data).toEqual({
      payment_id: start.payment_id,
      status: "otp",
      message: "STC Pay has sent a code to 05•••••678. Enter it to pay.",
    });
    const payment = (await findPayment(env.DB, start.payment_id))!;
    expect(payment).toMatchObject({ provider: "moyasar", method: "stcpay", status: "initiated" });
    // The gateway's payment, as the stand-in keeps it: what the adapter sent, in Moyasar's shape.
    const gateway = await env.KV.get<{ payment: MoyasarPayment & Record<string, unknown> }>(
      `stand-in:moyasar:payment:${payment.provider_ref}`,
      "json",
    );
    expect(gateway!.payment).toMatchObject({
      status: "initiated",
      amount: total,
      currency: "SAR",
      metadata: { payment_id: start.payment_id, order: number },
      source: { type: "stcpay", mobile: "0512345678" },
    });
    expect(gateway!.payment.callback_url).toMatch(new RegExp(`/en/payment-status\\?payment_id=${start.payment_id}`));

    // Arabic-Indic digits are the same code.
    const paid = await otpStep(guest, start.payment_id, "١٢٣٤٥٦");
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ payment_id: start.payment_id, status: "paid", order_status: "paid" });
    expect(await orderOf(guest, number)).toMatchObject({ status: "paid", payment_method: "stcpay" });
    // A second code for a paid payment changes nothing and answers the same.
    const again = await otpStep(guest, start.payment_id, "123456");
    expect(again.body.data).toMatchObject({ status: "paid" });
    expect(await stockOf(product.id)).toBe(4);
  });

  it("a wrong code fails the payment with STC Pay's reason, gives the stock back, and a new start pays", async () => {
    const guest = await newGuest();
    const { product, number, start } = await stcOrder(guest);
    await mobileStep(guest, start.payment_id, "0512345678");
    const failed = await otpStep(guest, start.payment_id, "111111");
    expect(failed.body.data).toMatchObject({ status: "failed", order_status: "payment_failed" });
    expect(failed.body.data.message).toContain("Insufficient Balance.");
    expect(await stockOf(product.id)).toBe(5);

    const retry = await call(guest, "POST", `/payments/${number}/start`, { return_url: RETURN });
    expect(retry.status).toBe(200);
    expect(retry.body.data.step).toBe("stcpay");
    expect(await stockOf(product.id)).toBe(4);
    await mobileStep(guest, retry.body.data.payment_id, "0512345678");
    expect((await otpStep(guest, retry.body.data.payment_id, "000000")).body.data.status).toBe("paid");
  });

  it("a number STC Pay refuses fails at once with its reason; the shopper may pay by card instead", async () => {
    const guest = await newGuest("ar");
    const { number, start } = await stcOrder(guest);
    const refused = await mobileStep(guest, start.payment_id, "0515555555");
    expect(refused.status).toBe(200);
    expect(refused.body.data.status).toBe("failed");
    expect(refused.body.data.message).toContain("Mobile number is not registered");
    expect((await findPayment(env.DB, start.payment_id))!.status).toBe("failed");

    const byCard = await call(guest, "POST", `/payments/${number}/start`, { return_url: RETURN, method: "card" });
    expect(byCard.status).toBe(200);
    expect(byCard.body.data).toMatchObject({ method: "card" });
    expect(byCard.body.data.redirect_url).toMatch(/^\/backend\/payments\/sandbox\//);
  });

  it("checks the number and the code, in the request's language, with field errors", async () => {
    const guest = await newGuest("ar");
    const { start } = await stcOrder(guest);
    const wrongNumber = await mobileStep(guest, start.payment_id, "0412345678");
    expect(wrongNumber.status).toBe(422);
    expect(wrongNumber.body.errors?.mobile).toEqual([
      "أدخل رقم الجوال السعودي المرتبط بمحفظة STC Pay، مثل \u206605XXXXXXXX\u2069.",
    ]);
    // A code before any number was given: nothing to confirm yet.
    const early = await otpStep(guest, start.payment_id, "123456");
    expect(early.status).toBe(409);
    await mobileStep(guest, start.payment_id, "٠٥١٢٣٤٥٦٧٨");
    const wrongCode = await otpStep(guest, start.payment_id, "12ab");
    expect(wrongCode.status).toBe(422);
    expect(wrongCode.body.errors?.otp).toEqual(["أدخل الرمز الذي أرسلته STC Pay: أرقام فقط."]);
    // A second number for the same payment is refused: one gateway payment per payment.
    const second = await mobileStep(guest, start.payment_id, "0512345679");
    expect(second.status).toBe(409);
    expect((await findPayment(env.DB, start.payment_id))!.status).toBe("initiated");
  });

  it("someone else's payment reads as none, and a card payment takes no STC Pay step", async () => {
    const guest = await newGuest();
    const { start, number } = await stcOrder(guest);
    const stranger = await newGuest();
    expect((await mobileStep(stranger, start.payment_id, "0512345678")).status).toBe(404);
    expect((await otpStep(stranger, start.payment_id, "123456")).status).toBe(404);
    const card = await call(guest, "POST", `/payments/${number}/start`, { return_url: RETURN, method: "card" });
    expect((await mobileStep(guest, card.body.data.payment_id, "0512345678")).status).toBe(409);
  });

  it("refunds in part and then the rest from the console, to the STC Pay payment itself", async () => {
    const shopper = await newUser();
    const manager = await newStaff("manager");
    const { number, total, start } = await stcOrder(shopper);
    await mobileStep(shopper, start.payment_id, "0512345678");
    await otpStep(shopper, start.payment_id, "123456");
    const part = await call(manager, "POST", `/admin/orders/${number}/refund`, { amount: 12345, reason: "Scratched" });
    expect(part.body.errors ?? part.body.message).toBeUndefined();
    expect(part.status).toBe(200);
    const ref = (await findPayment(env.DB, start.payment_id))!.provider_ref!;
    const atGateway = async () =>
      (await env.KV.get<{ payment: MoyasarPayment }>(`stand-in:moyasar:payment:${ref}`, "json"))!.payment;
    expect(await atGateway()).toMatchObject({ status: "refunded", refunded: 12345 });
    const rest = await call(manager, "POST", `/admin/orders/${number}/refund`, {
      amount: total - 12345,
      reason: "Returned",
    });
    expect(rest.status).toBe(200);
    expect((await atGateway()).refunded).toBe(total);
    const order = (await call(manager, "GET", `/admin/orders/${number}`)).body.data;
    expect(order).toMatchObject({ refunded: total, refundable: 0 });
    expect(order.refunds.map((r: { status: string }) => r.status)).toEqual(["succeeded", "succeeded"]);
  });

  it("is not offered in production unless PAYMENT_METHODS lists it and Moyasar's keys are set", () => {
    const production = (vars: Partial<Env>) =>
      ({
        ...env,
        ENVIRONMENT: "production",
        PAYMENT_PROVIDER: "moyasar",
        MOYASAR_SECRET_KEY: "sk_live_x",
        PAYMENT_SECRET: "whsec",
        ...vars,
      }) as Env;
    expect(enabledPaymentMethods(production({}))).toEqual(["card"]);
    expect(enabledPaymentMethods(production({ PAYMENT_METHODS: "card, STCPay" }))).toEqual(["card", "stcpay"]);
    expect(enabledPaymentMethods(production({ PAYMENT_METHODS: "stcpay", PAYMENT_PROVIDER: "" }))).toEqual([]);
    expect(
      enabledPaymentMethods(
        production({
          PAYMENT_METHODS: "stcpay",
          PAYMENT_PROVIDER: "sandbox",
          MOYASAR_SECRET_KEY: undefined,
          UNSAFE_SANDBOX_PAYMENTS_IN_PRODUCTION: "true",
        }),
      ),
    ).toEqual(["card"]);
    // Production never talks to the stand-in: without a key there is no Moyasar at all.
    expect(moyasarGateway(production({ MOYASAR_SECRET_KEY: undefined }))).toBeNull();
  });

  it("checkout refuses STC Pay where it is not offered, with a field error", async () => {
    const guest = await newGuest();
    const product = await createProduct({ stock: 2 });
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const res = await backendApp.request(
      "/checkout",
      {
        method: "POST",
        headers: { ...guest.headers, accept: "application/json", "content-type": "application/json" },
        body: JSON.stringify({
          idempotency_key: crypto.randomUUID(),
          email: guest.email,
          address,
          shipping_method: "standard",
          payment_method: "stcpay",
        }),
      },
      { ...env, PAYMENT_METHODS: "card" } as Env,
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as { errors: Record<string, string[]> };
    expect(body.errors.payment_method).toEqual(["This way of paying is not offered by the shop. Choose another."]);
  });
});

describe("the Moyasar adapter speaks the payments API as Moyasar documents it", () => {
  // Recorded from Moyasar's STC Pay guide: the payment the API answers to an stcpay source.
  const initiated: MoyasarPayment & Record<string, unknown> = {
    id: "0e3c6b2a-5a1f-4c8e-9b1e-2f0c1d6b7a90",
    status: "initiated",
    amount: 60000,
    fee: 0,
    currency: "SAR",
    refunded: 0,
    description: "Order SQ-1",
    invoice_id: null,
    metadata: { payment_id: "pay_doc", order: "SQ-1" },
    source: {
      type: "stcpay",
      mobile: "0555555555",
      reference_number: null,
      branch: null,
      cashier: null,
      transaction_url: "https://api.moyasar.com/v1/stc_pays/0e3c6b2a-5a1f-4c8e-9b1e-2f0c1d6b7a90/proceed?otp_token=abc",
      message: null,
    },
  };
  const record = {
    id: "pay_doc",
    order_id: 1,
    order_number: "SQ-1",
    provider: "moyasar",
    method: "stcpay" as const,
    status: "initiated" as const,
    amount: 60000,
    currency: "SAR",
    provider_ref: initiated.id,
    return_url: "/en/payment-status?payment_id=pay_doc&order=SQ-1",
  };

  function recording(answer: (url: string, init: RequestInit) => Response) {
    const calls: { url: string; method: string; auth: string | null; body: unknown }[] = [];
    const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      const headers = new Headers(init?.headers);
      calls.push({
        url,
        method: init?.method ?? "GET",
        auth: headers.get("authorization"),
        body: init?.body ? JSON.parse(String(init.body)) : null,
      });
      return answer(url, init ?? {});
    }) as typeof fetch;
    return { calls, provider: moyasarProvider({ secretKey: "sk_test_doc", webhookSecret: "w", fetcher }) };
  }

  it("creates the payment with an stcpay source, sends the code as otp_value, and reads the answer", async () => {
    const { calls, provider } = recording((url) =>
      url.endsWith("/payments")
        ? Response.json(initiated, { status: 201 })
        : Response.json({ ...initiated, status: "paid", source: { ...initiated.source, message: "Paid" } }),
    );
    const started = await provider.initiateStcPay({
      payment: { ...record, provider_ref: null },
      mobile: "0555555555",
      lang: "en",
      origin: "https://shop.example",
      returnPath: record.return_url,
    });
    expect(calls[0]).toEqual({
      url: "https://api.moyasar.com/v1/payments",
      method: "POST",
      auth: `Basic ${btoa("sk_test_doc:")}`,
      body: {
        amount: 60000,
        currency: "SAR",
        description: "Order SQ-1",
        callback_url: "https://shop.example/en/payment-status?payment_id=pay_doc&order=SQ-1",
        source: { type: "stcpay", mobile: "0555555555" },
        metadata: { payment_id: "pay_doc", order: "SQ-1" },
      },
    });
    expect(started).toEqual({
      result: {
        paymentId: "pay_doc",
        status: "pending",
        providerRef: initiated.id,
        message: null,
        amount: 60000,
        currency: "SAR",
      },
      transactionUrl: initiated.source!.transaction_url,
    });
    const confirmed = await provider.confirmStcPay(record, started.transactionUrl!, "123456");
    // The transaction URL is a bearer address: the code goes there alone, without the secret key.
    expect(calls[1]).toEqual({
      url: initiated.source!.transaction_url,
      method: "POST",
      auth: null,
      body: { otp_value: "123456" },
    });
    expect(confirmed).toMatchObject({ status: "paid", providerRef: initiated.id });
  });

  it("never sends a code anywhere but Moyasar, and reads a refusal's error envelope as a failure", async () => {
    const { calls, provider } = recording(() =>
      Response.json(
        { type: "invalid_request_error", message: "Validation Failed", errors: { "source.mobile": ["is invalid"] } },
        { status: 400 },
      ),
    );
    await expect(provider.confirmStcPay(record, "https://evil.example/steal", "123456")).rejects.toThrow(
      /not Moyasar's/,
    );
    expect(calls).toHaveLength(0);
    const refused = await provider.initiateStcPay({
      payment: record,
      mobile: "05",
      lang: "en",
      origin: "https://s.example",
      returnPath: "/",
    });
    expect(refused.result).toMatchObject({ status: "failed", message: "Validation Failed is invalid" });
  });

  it("fetches and refunds an STC Pay payment by its own id, not through an invoice", async () => {
    const { calls, provider } = recording((url) =>
      url.endsWith("/refund")
        ? Response.json({ ...initiated, status: "refunded", refunded: 1000 })
        : Response.json({ ...initiated, status: "paid" }),
    );
    expect(await provider.verifyReturn(record, new URLSearchParams())).toMatchObject({ status: "paid", amount: 60000 });
    expect(await provider.refund({ ...record, status: "paid" }, 1000, null)).toEqual({
      status: "succeeded",
      providerRef: initiated.id,
      message: null,
    });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      `GET https://api.moyasar.com/v1/payments/${initiated.id}`,
      `POST https://api.moyasar.com/v1/payments/${initiated.id}/refund`,
    ]);
    expect(calls[1].body).toEqual({ amount: 1000 });
  });

  it("the stand-in refuses a wrong key as Moyasar does, and only answers for its own address", async () => {
    const standIn = moyasarStandIn(env.KV);
    const wrongKey = await standIn(`${MOYASAR_STAND_IN_BASE}/payments`, {
      method: "POST",
      headers: { authorization: `Basic ${btoa("sk_test_other:")}` },
      body: "{}",
    });
    expect(wrongKey.status).toBe(401);
    expect(await wrongKey.json()).toMatchObject({ type: "authentication_error" });
    await expect(standIn("https://api.moyasar.com/v1/payments")).rejects.toThrow(/stand-in/);
  });

  it("reads the mobile numbers shoppers type as the wallet's number", () => {
    for (const typed of [
      "0512345678",
      "+966512345678",
      "00966 51 234 5678",
      "966-51-234-5678",
      "512345678",
      "٠٥١٢٣٤٥٦٧٨",
    ])
      expect(saudiMobile(typed), typed).toBe("0512345678");
    for (const typed of ["0412345678", "051234567", "+971512345678", "05123456789", ""])
      expect(saudiMobile(typed), typed).toBeNull();
  });
});

describe("migration 0044 on a database made and used under the schema before it", () => {
  it("keeps every payment, each now a card payment with no transaction address", async () => {
    const db = env.REPLICA_DB;
    await dropAll(db);
    await applyD1Migrations(
      db,
      env.TEST_MIGRATIONS.filter((m) => m.name < "0044"),
    );
    const user = await db
      .prepare("INSERT INTO users (name, email, password_hash) VALUES ('Old', 'old-pay@example.com', 'x') RETURNING id")
      .first<number>("id");
    const order = await db
      .prepare(
        `INSERT INTO orders (number, user_id, email, status, subtotal, shipping, vat, total, address, shipping_method, payment_method, idempotency_key)
         VALUES ('SQ-OLD1', ?, 'old-pay@example.com', 'paid', 10000, 0, 1304, 10000, '{}', 'standard', 'card', 'old-key') RETURNING id`,
      )
      .bind(user)
      .first<number>("id");
    await db
      .prepare(
        "INSERT INTO payments (id, order_id, provider, status, amount, currency, provider_ref, return_url) VALUES ('pay_old', ?, 'moyasar', 'paid', 10000, 'SAR', 'inv_old', '/en/payment-status')",
      )
      .bind(order)
      .run();
    const read = () => db.prepare("SELECT * FROM payments ORDER BY id").all();
    const before = (await read()).results;
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    expect((await read()).results).toEqual(before.map((row) => ({ ...row, method: "card", transaction_url: null })));
    expect(await findPayment(db, "pay_old")).toMatchObject({ method: "card", provider_ref: "inv_old", status: "paid" });
  });
});
