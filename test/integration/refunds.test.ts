import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { moyasarProvider } from "../../worker/backend/services/payments/providers/moyasar";
import {
  SANDBOX_REFUND_DECLINED_AMOUNT,
  sandboxProvider,
} from "../../worker/backend/services/payments/providers/sandbox";
import { refundOrder } from "../../worker/backend/services/orders/fulfilment";
import { findOrderByNumber } from "../../worker/backend/services/orders/orders";
import { call, newUser } from "../support/commerce";
import { newStaff } from "../support/console";
import { paidOrder } from "../support/orders";

const payment = {
  id: "pay_test",
  order_id: 1,
  order_number: "SQ-7K3F9QX2",
  provider: "moyasar",
  method: "card" as const,
  status: "paid" as const,
  amount: 22500,
  currency: "SAR",
  provider_ref: "inv_123",
  return_url: "/en/payment-status",
};

// Recorded from Moyasar's API documentation: the invoice with its paid payment, the payment
// after a refund, and the error envelope of a refused refund.
const INVOICE = {
  id: "inv_123",
  status: "paid",
  amount: 22500,
  currency: "SAR",
  url: "https://checkout.moyasar.com/invoices/inv_123",
  payments: [
    { id: "pm_failed", status: "failed", source: { message: "DECLINED" } },
    { id: "760878ec-d1d3-5f72-9056-191683f55872", status: "paid", source: { message: "APPROVED" } },
  ],
};
const REFUNDED_PAYMENT = {
  id: "760878ec-d1d3-5f72-9056-191683f55872",
  status: "refunded",
  amount: 22500,
  fee: 0,
  currency: "SAR",
  refunded: 5000,
  refunded_at: "2026-11-25T06:00:00.000Z",
  captured: 22500,
  description: "Order SQ-7K3F9QX2",
  invoice_id: "inv_123",
  source: { type: "creditcard", company: "visa", name: "Sara Test", number: "4111-11XX-XXXX-1111" },
};
const REFUSED = {
  type: "invalid_request_error",
  message: "Amount exceeds the refundable amount",
  errors: { amount: ["must be less than or equal to 17500"] },
};

function fakeMoyasar(refund: { status: number; body: unknown }) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetcher = (async (url: string, init: RequestInit = {}) => {
    calls.push({ url, init });
    if (url.endsWith("/refund"))
      return new Response(JSON.stringify(refund.body), {
        status: refund.status,
        headers: { "content-type": "application/json" },
      });
    return Response.json(INVOICE);
  }) as typeof fetch;
  return { calls, provider: moyasarProvider({ secretKey: "sk_test_abc", webhookSecret: "whsec", fetcher }) };
}

describe("refunds through the payment provider", () => {
  afterEach(() => vi.restoreAllMocks());

  it("the sandbox refunds at once, and declines a refund of 13.13 SAR", async () => {
    const sandbox = sandboxProvider("secret");
    const done = await sandbox.refund({ ...payment, provider: "sandbox" }, 5000, "Scratched box");
    expect(done).toMatchObject({ status: "succeeded", message: null });
    expect(done.providerRef).toMatch(/^rfd_/);
    expect(await sandbox.refund({ ...payment, provider: "sandbox" }, SANDBOX_REFUND_DECLINED_AMOUNT, null)).toEqual({
      status: "failed",
      providerRef: null,
      message: "refund_declined",
    });
  });

  it("a declined sandbox refund is recorded as failed and changes nothing of the order", async () => {
    const manager = await newStaff("manager");
    const shopper = await newUser();
    const { number, total } = await paidOrder(shopper);
    const refused = await call(manager, "POST", `/admin/orders/${number}/refund`, {
      amount: SANDBOX_REFUND_DECLINED_AMOUNT,
      reason: "Test",
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.amount?.[0]).toBe(
      "The payment provider refused the refund (refund_declined). Nothing was refunded.",
    );
    const order = (await call(manager, "GET", `/admin/orders/${number}`)).body.data;
    expect(order).toMatchObject({ status: "paid", payment_status: "paid", refunded: 0, refundable: total });
    expect(order.refunds).toMatchObject([
      { amount: SANDBOX_REFUND_DECLINED_AMOUNT, status: "failed", message: "refund_declined" },
    ]);
    expect(order.events.map((e: { type: string }) => e.type).slice(-2)).toEqual(["refund_requested", "refund_failed"]);
    expect((await call(shopper, "GET", `/orders/${number}`)).body.data).toMatchObject({
      payment_status: "paid",
      refunded: 0,
    });
    // It may be tried again, with another amount.
    const again = await call(manager, "POST", `/admin/orders/${number}/refund`, { amount: 1000 });
    expect(again.body.data).toMatchObject({ refunded: 1000, payment_status: "partially_refunded" });
  });

  it("Moyasar: refunds the invoice's paid payment with the secret key and the amount in halalas", async () => {
    const { calls, provider } = fakeMoyasar({ status: 200, body: REFUNDED_PAYMENT });
    expect(await provider.refund(payment, 5000, "Scratched box")).toEqual({
      status: "succeeded",
      providerRef: REFUNDED_PAYMENT.id,
      message: null,
    });
    expect(calls.map((c) => c.url)).toEqual([
      "https://api.moyasar.com/v1/invoices/inv_123",
      `https://api.moyasar.com/v1/payments/${REFUNDED_PAYMENT.id}/refund`,
    ]);
    expect(calls[1].init.method).toBe("POST");
    expect(new Headers(calls[1].init.headers).get("authorization")).toBe(`Basic ${btoa("sk_test_abc:")}`);
    expect(JSON.parse(String(calls[1].init.body))).toEqual({ amount: 5000 });
  });

  it("Moyasar: a refused refund answers failed with Moyasar's message", async () => {
    const { provider } = fakeMoyasar({ status: 400, body: REFUSED });
    expect(await provider.refund(payment, 99999, null)).toEqual({
      status: "failed",
      providerRef: REFUNDED_PAYMENT.id,
      message: "Amount exceeds the refundable amount must be less than or equal to 17500",
    });
  });

  it("Moyasar: an unreachable gateway throws, and the refund service records it as failed", async () => {
    const { provider } = fakeMoyasar({ status: 503, body: {} });
    await expect(provider.refund(payment, 100, null)).rejects.toThrow(/answered 503/);
  });

  it("Moyasar through the refund service: the order and the payment show the refund", async () => {
    const manager = await newStaff("manager");
    const { number } = await paidOrder(await newUser());
    const order = (await findOrderByNumber(env.DB, number))!;
    // The order was paid with the sandbox; here its payment is Moyasar's, with an invoice id.
    await env.DB.prepare("UPDATE payments SET provider = 'moyasar', provider_ref = 'inv_123' WHERE order_id = ?")
      .bind(order.id)
      .run();
    const seen: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      seen.push(`${init?.method ?? "GET"} ${url}`);
      if (url.endsWith("/refund")) return Response.json({ ...REFUNDED_PAYMENT, refunded: 5000 });
      return Response.json(INVOICE);
    });
    const moyasarEnv = { ...env, PAYMENT_PROVIDER: "moyasar", MOYASAR_SECRET_KEY: "sk_test_x" };
    const outcome = await refundOrder(
      moyasarEnv,
      order,
      5000,
      { kind: "staff", staff: { user_id: manager.userId, email: manager.email } },
      {
        lang: "en",
        reason: "Scratched box",
      },
    );
    expect(outcome).toMatchObject({ succeeded: true, refund: { amount: 5000, status: "succeeded" } });
    expect(seen).toEqual([
      "GET https://api.moyasar.com/v1/invoices/inv_123",
      `POST https://api.moyasar.com/v1/payments/${REFUNDED_PAYMENT.id}/refund`,
    ]);
    const after = (await call(manager, "GET", `/admin/orders/${number}`)).body.data;
    expect(after).toMatchObject({ refunded: 5000, payment_status: "partially_refunded" });
    expect(after.payments[0]).toMatchObject({ provider: "moyasar", status: "partially_refunded", refunded: 5000 });
  });

  it("a gateway that cannot be reached leaves nothing refunded", async () => {
    const manager = await newStaff("manager");
    const { number, total } = await paidOrder(await newUser());
    const order = (await findOrderByNumber(env.DB, number))!;
    await env.DB.prepare("UPDATE payments SET provider = 'moyasar', provider_ref = 'inv_123' WHERE order_id = ?")
      .bind(order.id)
      .run();
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("down", { status: 502 }));
    const moyasarEnv = { ...env, PAYMENT_PROVIDER: "moyasar", MOYASAR_SECRET_KEY: "sk_test_x" };
    const outcome = await refundOrder(
      moyasarEnv,
      order,
      total,
      { kind: "staff", staff: { user_id: manager.userId, email: manager.email } },
      {
        lang: "en",
      },
    );
    expect(outcome).toMatchObject({ succeeded: false, refund: { status: "failed", message: "provider_unavailable" } });
    expect((await findOrderByNumber(env.DB, number))!.refunded).toBe(0);
  });
});
