import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sandboxSecret, WebhookRejected } from "../../worker/backend/services/payments/providers";
import { moyasarProvider } from "../../worker/backend/services/payments/providers/moyasar";
import { decideCard, sandboxEvent } from "../../worker/backend/services/payments/providers/sandbox";
import {
  findPayment,
  receiveWebhook,
  safeReturnPath,
  startPayment,
} from "../../worker/backend/services/payments/payments";
import { call, checkoutWith, createProduct, newGuest, newUser, stockOf, type Shopper } from "../support/commerce";
import { hmacHex } from "../../worker/backend/services/payments/providers/hmac";

const RETURN = "/en/payment-status";

async function placedOrder(shopper: Shopper, opts: { stock?: number; quantity?: number; price?: number } = {}) {
  const product = await createProduct({ stock: opts.stock ?? 10, price: opts.price ?? 10000 });
  const placed = await checkoutWith(shopper, product.id, opts.quantity ?? 1);
  expect(placed.status).toBe(201);
  return { product, number: placed.body.data.number as string, total: placed.body.data.total as number };
}

async function start(shopper: Shopper, number: string, returnUrl = RETURN) {
  return call<{ payment_id: string; redirect_url: string }>(shopper, "POST", `/payments/${number}/start`, {
    return_url: returnUrl,
  });
}

/** The browser on the sandbox page: submits a form and does not follow the redirect. */
async function submit(path: string, fields: Record<string, string>) {
  return SELF.fetch(`http://shop.test${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
}

const card = (number: string) => ({
  card_number: number,
  expiry: "12/39",
  cvc: "123",
  name: "Sara Test",
  action: "pay",
});

async function orderOf(shopper: Shopper, number: string) {
  return (await call(shopper, "GET", `/orders/${number}`)).body.data;
}

describe("payments", () => {
  it("the sandbox card page pays an order: GET the page, POST the success card, return to the shop", async () => {
    const guest = await newGuest();
    const { product, number } = await placedOrder(guest);
    const started = await start(guest, number);
    expect(started.status).toBe(200);
    expect(started.body.data.redirect_url).toBe(`/backend/payments/sandbox/${started.body.data.payment_id}?lang=en`);

    const page = await SELF.fetch(`http://shop.test${started.body.data.redirect_url}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="en-US" dir="ltr">');
    expect(html).not.toMatch(/<script/i);
    for (const id of ["card-number", "card-expiry", "card-cvc"]) expect(html).toContain(`<label for="${id}">`);
    expect(html).toContain(number);
    expect(html).toContain("4242 4242 4242 4242");

    const paid = await submit(started.body.data.redirect_url, card("4242 4242 4242 4242"));
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get("location")!, "http://shop.test");
    expect(back.pathname).toBe(RETURN);
    expect(back.searchParams.get("payment_id")).toBe(started.body.data.payment_id);
    expect(back.searchParams.get("order")).toBe(number);

    const status = await call(guest, "GET", `/payments/${started.body.data.payment_id}/status`);
    expect(status.body.data).toEqual({
      payment_id: started.body.data.payment_id,
      status: "paid",
      order_number: number,
      order_status: "paid",
      message: "Payment received. Thank you for your order!",
      method: "card",
    });
    expect(await orderOf(guest, number)).toMatchObject({ status: "paid", payment_status: "paid" });
    expect(await stockOf(product.id)).toBe(9);
  });

  it("the page speaks Arabic right-to-left when asked", async () => {
    const guest = await newGuest("ar");
    const { number } = await placedOrder(guest);
    const started = await start(guest, number, "/ar/payment-status");
    expect(started.body.data.redirect_url).toContain("lang=ar");
    const html = await (await SELF.fetch(`http://shop.test${started.body.data.redirect_url}`)).text();
    expect(html).toContain('<html lang="ar-SA" dir="rtl">');
    expect(html).toContain("رقم البطاقة");
    const invalid = await submit(started.body.data.redirect_url, card("1234"));
    expect(invalid.status).toBe(422);
    expect(await invalid.text()).toContain("أدخل رقم بطاقة صحيحاً.");
  });

  it("a declined card marks the payment failed, the order payment_failed, and releases the stock", async () => {
    const guest = await newGuest();
    const { product, number } = await placedOrder(guest, { stock: 3, quantity: 2 });
    expect(await stockOf(product.id)).toBe(1);
    const started = await start(guest, number);
    const declined = await submit(started.body.data.redirect_url, card("4000000000000002"));
    expect(declined.status).toBe(303);
    const status = (await call(guest, "GET", `/payments/${started.body.data.payment_id}/status`)).body.data;
    expect(status).toMatchObject({
      status: "failed",
      order_status: "payment_failed",
      message: "Your card was declined. Try another card.",
    });
    expect(await stockOf(product.id)).toBe(3);
    expect(await orderOf(guest, number)).toMatchObject({ status: "payment_failed", payment_status: "failed" });
  });

  it("a retry after a decline takes the stock again and pays", async () => {
    const guest = await newGuest();
    const { product, number } = await placedOrder(guest, { stock: 3, quantity: 2 });
    const first = await start(guest, number);
    await submit(first.body.data.redirect_url, card("4000000000000002"));
    expect(await stockOf(product.id)).toBe(3);

    const retry = await start(guest, number);
    expect(retry.status).toBe(200);
    expect(await stockOf(product.id)).toBe(1);
    expect((await orderOf(guest, number)).status).toBe("pending_payment");
    await submit(retry.body.data.redirect_url, card("4242424242424242"));
    expect(await orderOf(guest, number)).toMatchObject({ status: "paid", payment_status: "paid" });
    expect(await stockOf(product.id)).toBe(1);
    // A paid order cannot be started again.
    const again = await start(guest, number);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("This order is already paid.");
  });

  it("a retry is refused clearly when the released stock was sold meanwhile", async () => {
    const guest = await newGuest();
    const { product, number } = await placedOrder(guest, { stock: 1 });
    const first = await start(guest, number);
    await submit(first.body.data.redirect_url, card("4000000000000002"));
    expect((await checkoutWith(await newGuest(), product.id, 1)).status).toBe(201);
    const retry = await start(guest, number);
    expect(retry.status).toBe(409);
    expect(retry.body.message).toBe(
      "Some items of this order are no longer in stock, so it cannot be paid. Please place a new order.",
    );
    expect(await stockOf(product.id)).toBe(0);
    expect((await orderOf(guest, number)).status).toBe("payment_failed");
  });

  it("the 3-D Secure card asks for a code; 123456 passes", async () => {
    const guest = await newGuest();
    const { number } = await placedOrder(guest);
    const started = await start(guest, number);
    const challenged = await submit(started.body.data.redirect_url, card("4000 0000 0000 3220"));
    expect(challenged.status).toBe(303);
    const challengePage = await SELF.fetch(`http://shop.test${challenged.headers.get("location")}`);
    const html = await challengePage.text();
    expect(html).toContain("3-D Secure verification");
    expect(html).toContain('<label for="otp-code">');
    expect((await call(guest, "GET", `/payments/${started.body.data.payment_id}/status`)).body.data.status).toBe(
      "pending",
    );

    const id = started.body.data.payment_id;
    const passed = await submit(`/backend/payments/sandbox/${id}/challenge?lang=en`, { code: "123456" });
    expect(passed.status).toBe(303);
    expect(passed.headers.get("location")).toBe(`${RETURN}?payment_id=${id}&order=${number}`);
    expect((await call(guest, "GET", `/payments/${id}/status`)).body.data).toMatchObject({
      status: "paid",
      order_status: "paid",
    });
    const row = await env.DB.prepare("SELECT three_ds FROM payments WHERE id = ?")
      .bind(id)
      .first<{ three_ds: string }>();
    expect(row!.three_ds).toBe("passed");
  });

  it("a wrong 3-D Secure code fails the payment and releases the stock", async () => {
    const guest = await newGuest();
    const { product, number } = await placedOrder(guest, { stock: 2 });
    const started = await start(guest, number);
    await submit(started.body.data.redirect_url, card("4000000000003220"));
    await submit(`/backend/payments/sandbox/${started.body.data.payment_id}/challenge`, { code: "000000" });
    const status = (await call(guest, "GET", `/payments/${started.body.data.payment_id}/status`)).body.data;
    expect(status).toMatchObject({
      status: "failed",
      order_status: "payment_failed",
      message: "The 3-D Secure verification failed.",
    });
    expect(await stockOf(product.id)).toBe(2);
  });

  it("a replayed webhook changes nothing, and a badly signed one is refused", async () => {
    const guest = await newGuest();
    const { product, number } = await placedOrder(guest, { stock: 4 });
    const started = await start(guest, number);
    const payment = (await findPayment(env.DB, started.body.data.payment_id))!;
    const declined = await sandboxEvent(await sandboxSecret(env), payment, {
      status: "failed",
      message: "declined",
      threeDs: null,
    });
    const deliver = (body: string, signature: string) =>
      SELF.fetch("http://shop.test/backend/payments/webhook/sandbox", {
        method: "POST",
        headers: { "content-type": "application/json", "x-signature": signature },
        body,
      });

    const first = await deliver(declined.body, declined.signature);
    expect(first.status).toBe(200);
    expect(((await first.json()) as { data: unknown }).data).toEqual({
      received: true,
      replayed: false,
      outcome: "failed",
    });
    expect(await stockOf(product.id)).toBe(4);

    // The shopper retries and takes the stock again; a replay of the old decline must not free it.
    const retry = await start(guest, number);
    expect(retry.status).toBe(200);
    expect(await stockOf(product.id)).toBe(3);
    const replay = await deliver(declined.body, declined.signature);
    expect(((await replay.json()) as { data: unknown }).data).toEqual({
      received: true,
      replayed: true,
      outcome: "unchanged",
    });
    expect(await stockOf(product.id)).toBe(3);
    expect((await orderOf(guest, number)).status).toBe("pending_payment");

    const forged = await deliver(declined.body.replace("payment.failed", "payment.paid"), declined.signature);
    expect(forged.status).toBe(401);
    const unsigned = await deliver(declined.body, "");
    expect(unsigned.status).toBe(401);
    const wrongKey = await deliver(declined.body, await hmacHex("not-the-secret", declined.body));
    expect(wrongKey.status).toBe(401);
    expect((await call(null, "POST", "/payments/webhook/nobody", {})).status).toBe(404);
  });

  it("an order is never paid twice, even with two payments in flight", async () => {
    const guest = await newGuest();
    const { number } = await placedOrder(guest);
    const a = await start(guest, number);
    const b = await start(guest, number);
    await submit(a.body.data.redirect_url, card("4242424242424242"));
    await submit(b.body.data.redirect_url, card("4242424242424242"));
    const second = (await call(guest, "GET", `/payments/${b.body.data.payment_id}/status`)).body.data;
    expect(second).toMatchObject({
      status: "failed",
      order_status: "paid",
      message: "This order was already paid by another payment.",
    });
    const paid = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.number = ? AND p.status = 'paid'",
    )
      .bind(number)
      .first<{ n: number }>();
    expect(paid!.n).toBe(1);
  });

  it("the return address must be a path on this shop", async () => {
    const guest = await newGuest();
    const { number } = await placedOrder(guest);
    for (const bad of [
      "https://evil.example/steal",
      "//evil.example/x",
      "javascript:alert(1)",
      "/\\evil.example",
      "payment-status",
    ]) {
      const answer = await start(guest, number, bad);
      expect(answer.status, bad).toBe(422);
      expect(answer.body.errors?.return_url).toEqual(["The return address must be a path on this shop."]);
    }
    expect((await start(guest, number, "/en/payment-status?from=checkout")).status).toBe(200);
  });

  it("only the order's owner can start its payment", async () => {
    const owner = await newUser();
    const { number } = await placedOrder(owner);
    expect((await start(await newUser(), number)).status).toBe(404);
    expect((await start(await newGuest(), number)).status).toBe(404);
    expect((await start(owner, number)).status).toBe(200);
  });

  it("cancelling on the card page fails the payment and frees the stock for a retry", async () => {
    const guest = await newGuest();
    const { product, number } = await placedOrder(guest, { stock: 2 });
    const started = await start(guest, number);
    const cancelled = await submit(started.body.data.redirect_url, { action: "cancel" });
    expect(cancelled.status).toBe(303);
    expect((await call(guest, "GET", `/payments/${started.body.data.payment_id}/status`)).body.data.message).toBe(
      "The payment was cancelled.",
    );
    expect(await stockOf(product.id)).toBe(2);
    expect((await SELF.fetch(`http://shop.test/backend/payments/sandbox/pay_unknown`)).status).toBe(404);
  });
});

describe("the sandbox's card rules", () => {
  const now = new Date("2026-06-15T00:00:00Z");
  const form = (number: string, expiry = "12/30", cvc = "123") => ({ number, expiry, cvc, name: "" });

  it("knows its three test cards, with or without spaces", () => {
    expect(decideCard(form("4242 4242 4242 4242"), "en", now)).toEqual({ outcome: "paid" });
    expect(decideCard(form("4000-0000-0000-0002"), "en", now)).toEqual({ outcome: "declined" });
    expect(decideCard(form("4000000000003220"), "en", now)).toEqual({ outcome: "challenge" });
  });

  it("refuses other cards, past expiry dates and bad security codes field by field", () => {
    expect(decideCard(form("5555555555554444"), "en", now)).toEqual({
      errors: { number: "Use one of the test cards listed below." },
    });
    expect(decideCard(form("4242424242424241"), "en", now)).toEqual({
      errors: { number: "Enter a valid card number." },
    });
    expect(decideCard(form("4242424242424242", "05/26"), "en", now)).toEqual({
      errors: { expiry: "Enter a future expiry date as MM/YY." },
    });
    expect(decideCard(form("4242424242424242", "06/26"), "en", now)).toEqual({ outcome: "paid" });
    expect(decideCard(form("4242424242424242", "13/30"), "en", now)).toEqual({
      errors: { expiry: "Enter a future expiry date as MM/YY." },
    });
    expect(decideCard(form("4242424242424242", "12/30", "12"), "ar", now)).toEqual({
      errors: { cvc: "أدخل رمز الأمان المكوّن من 3 أو 4 أرقام." },
    });
  });

  it("keeps a return address on this shop", () => {
    expect(safeReturnPath("/ar/payment-status?x=1")).toBe("/ar/payment-status?x=1");
    for (const bad of [
      "https://evil.example/",
      "//evil.example",
      "/\\evil",
      "javascript:alert(1)",
      "relative/path",
      "/ok\u0000",
    ])
      expect(safeReturnPath(bad), bad).toBeNull();
  });
});

describe("the Moyasar adapter", () => {
  const payment = {
    id: "pay_test",
    order_id: 1,
    order_number: "SQ-7K3F9QX2",
    provider: "moyasar",
    method: "card" as const,
    status: "initiated" as const,
    amount: 22500,
    currency: "SAR",
    provider_ref: "inv_123",
    return_url: "/en/payment-status?payment_id=pay_test&order=SQ-7K3F9QX2",
  };

  function fakeMoyasar(invoice: Record<string, unknown>) {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetcher = (async (url: string, init: RequestInit = {}) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(invoice), { status: 200, headers: { "content-type": "application/json" } });
    }) as typeof fetch;
    return { calls, provider: moyasarProvider({ secretKey: "sk_test_abc", webhookSecret: "whsec", fetcher }) };
  }

  it("starts by creating an invoice with the secret key and sends the shopper to its page", async () => {
    const { calls, provider } = fakeMoyasar({
      id: "inv_123",
      status: "initiated",
      amount: 22500,
      currency: "SAR",
      url: "https://checkout.moyasar.com/invoices/inv_123",
    });
    const started = await provider.start({
      payment,
      email: "a@b.example",
      lang: "en",
      origin: "https://shop.example",
      backendBase: "/backend",
      returnPath: payment.return_url,
    });
    expect(started).toEqual({ redirectUrl: "https://checkout.moyasar.com/invoices/inv_123", providerRef: "inv_123" });
    expect(calls[0].url).toBe("https://api.moyasar.com/v1/invoices");
    expect(new Headers(calls[0].init.headers).get("authorization")).toBe(`Basic ${btoa("sk_test_abc:")}`);
    const sent = JSON.parse(String(calls[0].init.body));
    expect(sent).toMatchObject({
      amount: 22500,
      currency: "SAR",
      success_url: `https://shop.example${payment.return_url}`,
      metadata: { payment_id: "pay_test", order: "SQ-7K3F9QX2" },
    });
  });

  it("verifies a return by asking Moyasar for the invoice, never trusting the redirect", async () => {
    const paid = fakeMoyasar({ id: "inv_123", status: "paid", amount: 22500, currency: "SAR", url: "x" });
    expect(await paid.provider.verifyReturn(payment, new URLSearchParams("status=failed"))).toMatchObject({
      status: "paid",
      amount: 22500,
      currency: "SAR",
    });
    expect(paid.calls[0].url).toBe("https://api.moyasar.com/v1/invoices/inv_123");
    const open = fakeMoyasar({ id: "inv_123", status: "initiated", amount: 22500, currency: "SAR", url: "x" });
    expect((await open.provider.verifyReturn(payment, new URLSearchParams("status=paid")))?.status).toBe("pending");
  });

  it("accepts a webhook only with a valid HMAC signature or Moyasar's secret token", async () => {
    const { provider } = fakeMoyasar({});
    const event = JSON.stringify({
      id: "evt_1",
      type: "payment_paid",
      data: { id: "pm_1", status: "paid", amount: 22500, currency: "SAR", metadata: { payment_id: "pay_test" } },
    });
    const signed = await provider.parseWebhook(event, new Headers({ "x-signature": await hmacHex("whsec", event) }));
    expect(signed).toMatchObject({
      eventId: "evt_1",
      result: { paymentId: "pay_test", status: "paid", amount: 22500 },
    });
    await expect(
      provider.parseWebhook(event, new Headers({ "x-signature": await hmacHex("other", event) })),
    ).rejects.toBeInstanceOf(WebhookRejected);
    const withToken = JSON.stringify({ ...JSON.parse(event), secret_token: "whsec" });
    expect((await provider.parseWebhook(withToken, new Headers())).result?.status).toBe("paid");
    const wrongToken = JSON.stringify({ ...JSON.parse(event), secret_token: "guess" });
    await expect(provider.parseWebhook(wrongToken, new Headers())).rejects.toBeInstanceOf(WebhookRejected);
  });

  describe("through the payment service", () => {
    afterEach(() => vi.restoreAllMocks());

    /** Moyasar's API as seen through fetch: the invoice answers with the given status. */
    function moyasarApi(status: () => string) {
      return vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        const amount = init?.body ? JSON.parse(String(init.body)).amount : lastAmount;
        lastAmount = amount;
        expect(url.startsWith("https://api.moyasar.com/v1/invoices")).toBe(true);
        return Response.json({
          id: "inv_live_1",
          status: status(),
          amount,
          currency: "SAR",
          url: "https://checkout.moyasar.com/invoices/inv_live_1",
        });
      });
    }
    let lastAmount = 0;

    it("a Moyasar webhook is applied only once Moyasar's API confirms the invoice is paid", async () => {
      const guest = await newGuest();
      const { number } = await placedOrder(guest);
      const moyasarEnv = { ...env, PAYMENT_PROVIDER: "moyasar", MOYASAR_SECRET_KEY: "sk_test_x" };
      let invoiceStatus = "initiated";
      moyasarApi(() => invoiceStatus);
      const started = await startPayment(
        env.DB,
        moyasarEnv,
        { userId: null, guestId: guest.guestId! },
        number,
        RETURN,
        "en",
        "https://shop.example",
      );
      expect(started.redirect_url).toBe("https://checkout.moyasar.com/invoices/inv_live_1");

      const event = (id: string) =>
        JSON.stringify({
          id,
          type: "payment_paid",
          data: { id: "pm_1", status: "paid", amount: lastAmount, currency: "SAR", invoice_id: "inv_live_1" },
        });
      const sign = async (body: string) => new Headers({ "x-signature": await hmacHex(env.PAYMENT_SECRET!, body) });
      // The event claims paid, the API still says initiated: nothing is applied.
      const early = event("evt_a");
      expect((await receiveWebhook(env.DB, moyasarEnv, "moyasar", early, await sign(early))).outcome).toBe("pending");
      expect((await orderOf(guest, number)).status).toBe("pending_payment");

      invoiceStatus = "paid";
      const later = event("evt_b");
      expect(await receiveWebhook(env.DB, moyasarEnv, "moyasar", later, await sign(later))).toEqual({
        replayed: false,
        outcome: "paid",
      });
      expect(await orderOf(guest, number)).toMatchObject({ status: "paid", payment_status: "paid" });
      expect(await receiveWebhook(env.DB, moyasarEnv, "moyasar", later, await sign(later))).toEqual({
        replayed: true,
        outcome: "unchanged",
      });
    });
  });
});
