import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORDER_ACCESS_HEADER } from "../../contract/order-access";
import {
  MESSAGE_LINK_SECONDS,
  orderLinkSecret,
  signOrderAccess,
  verifyOrderAccess,
} from "../../worker/backend/services/orders/order-links";
import { address, call, newGuest, newUser, type Shopper } from "../support/commerce";
import { paidOrder, placeOrder } from "../support/orders";

/**
 * Signed order links: a guest's order messages carry a signed, expiring token for that order,
 * which the page trades for a short-lived tab grant; the grant opens that order's page, documents
 * and self-service, and nothing else. Tracking by number and contact hands out the same grant.
 */

const now = () => Math.floor(Date.now() / 1000);

/** A caller with no identity at all: a fresh browser, holding only what a link gave it. */
const stranger = (grant?: string): Pick<Shopper, "headers"> => ({
  headers: { "content-language": "en", ...(grant ? { [ORDER_ACCESS_HEADER]: grant } : {}) },
});

/** Trades a message link's token for a tab grant, as the order's page does. */
const exchange = (number: string, token: string) => call(stranger(), "POST", `/orders/${number}/access`, { token });

/** Flips one character of the signature: a tampered token. */
const tamper = (token: string) => token.replace(/.$/, (c) => (c === "0" ? "1" : "0"));

const outboxOf = async (to: string) =>
  (
    await env.DB.prepare("SELECT purpose, body, html FROM dev_outbox WHERE recipient = ? ORDER BY id")
      .bind(to)
      .all<{ purpose: string; body: string; html: string | null }>()
  ).results;

/** The message of `purpose` for `number`, once the queue has sent it. */
async function messageOf(shopper: Shopper, number: string, purpose: string) {
  await expect
    .poll(async () => (await outboxOf(shopper.email)).some((m) => m.purpose === purpose && m.body.includes(number)), {
      timeout: 10_000,
      interval: 100,
    })
    .toBe(true);
  return (await outboxOf(shopper.email)).find((m) => m.purpose === purpose && m.body.includes(number))!;
}

describe("the signature", () => {
  it("opens only its order, for its purpose, until it expires, and refuses any change", async () => {
    const token = await signOrderAccess(env, "SQ-AAAA1111", "message");
    expect(await verifyOrderAccess(env, "SQ-AAAA1111", "message", token)).toMatchObject({ ok: true });
    // The number is read as stored (upper case).
    expect(await verifyOrderAccess(env, "sq-aaaa1111", "message", token)).toMatchObject({ ok: true });
    expect(Number(token.split(".")[0]) - now()).toBeGreaterThan(MESSAGE_LINK_SECONDS - 60);

    const refused = { ok: false, reason: "invalid" };
    expect(await verifyOrderAccess(env, "SQ-AAAA1111", "message", tamper(token))).toEqual(refused);
    expect(await verifyOrderAccess(env, "SQ-BBBB2222", "message", token)).toEqual(refused);
    expect(await verifyOrderAccess(env, "SQ-AAAA1111", "tab", token)).toEqual(refused);
    // A later expiry written over the signed one.
    expect(
      await verifyOrderAccess(env, "SQ-AAAA1111", "message", token.replace(/^\d+/, String(now() + 10 ** 8))),
    ).toEqual(refused);
    for (const junk of ["", "abc", `${now() + 60}.xyz`, `${token}.1`])
      expect(await verifyOrderAccess(env, "SQ-AAAA1111", "message", junk)).toEqual(refused);
    // Signed with another key.
    const foreign = await signOrderAccess({ ...env, ORDER_LINK_SECRET: "another-shop" }, "SQ-AAAA1111", "message");
    expect(await verifyOrderAccess(env, "SQ-AAAA1111", "message", foreign)).toEqual(refused);

    const expired = await signOrderAccess(env, "SQ-AAAA1111", "message", now() - 1);
    expect(await verifyOrderAccess(env, "SQ-AAAA1111", "message", expired)).toEqual({ ok: false, reason: "expired" });
  });

  it("production refuses to sign or check without a real secret, as it does without the pepper", async () => {
    expect(() => orderLinkSecret({ ENVIRONMENT: "production" })).toThrow(/ORDER_LINK_SECRET is not set/);
    expect(orderLinkSecret({ ENVIRONMENT: "production", ORDER_LINK_SECRET: "real" })).toBe("real");
    await expect(signOrderAccess({ ENVIRONMENT: "production" }, "SQ-AAAA1111", "message")).rejects.toThrow(
      /ORDER_LINK_SECRET/,
    );
  });
});

describe("a guest's message link", () => {
  it("the paid message's invoice link opens, with no guest id, the invoice, the order and its cancel, then the credit note", async () => {
    const guest = await newGuest();
    const order = await paidOrder(guest);
    const paid = await messageOf(guest, order.number, "order.paid");
    const link = new RegExp(`http://shop\\.test/en/order/${order.number}/invoice#access=(\\d+\\.[0-9a-f]{64})`);
    const token = link.exec(paid.body)![1]!;
    expect(paid.html).toContain(`/en/order/${order.number}/invoice#access=${token}`);

    // Sent as a grant, the link's own token opens nothing: it is traded first.
    expect((await call(stranger(token), "GET", `/orders/${order.number}`)).status).toBe(404);
    const traded = await exchange(order.number, token);
    expect(traded.status).toBe(200);
    const grant = traded.body.data.access as string;
    expect(Date.parse(traded.body.data.expires_at)).toBeGreaterThan(Date.now());

    const invoice = await call(stranger(grant), "GET", `/orders/${order.number}/invoice`);
    expect(invoice.status).toBe(200);
    expect(invoice.body.data.order_number).toBe(order.number);
    const page = await call(stranger(grant), "GET", `/orders/${order.number}`);
    expect(page.status).toBe(200);
    expect(page.body.data.self_service).toMatchObject({ can_cancel: true });
    // With the address: the order's own page, not tracking's reduced view.
    expect(page.body.data.address.street).toBe(address.street);

    const cancelled = await call(stranger(grant), "POST", `/orders/${order.number}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: "cancelled", refunded: order.total });
    const note = cancelled.body.data.credit_notes[0] as { id: number };
    expect((await call(stranger(grant), "GET", `/orders/${order.number}/credit-notes/${note.id}`)).status).toBe(200);

    // The refund's message links its credit note, signed the same way.
    const refunded = await messageOf(guest, order.number, "order.refunded");
    expect(refunded.body).toMatch(
      new RegExp(`/en/order/${order.number}/credit-note/${note.id}#access=\\d+\\.[0-9a-f]{64}`),
    );
  }, 30_000);

  it("a tampered, expired, other order's or wrong-purpose token is refused, 403, and gives no grant", async () => {
    const guest = await newGuest();
    const mine = await placeOrder(guest);
    const other = await placeOrder(await newGuest());
    const token = await signOrderAccess(env, mine.number, "message");
    const tab = await signOrderAccess(env, mine.number, "tab");
    for (const [label, number, bad] of [
      ["tampered", mine.number, tamper(token)],
      ["expired", mine.number, await signOrderAccess(env, mine.number, "message", now() - 1)],
      ["another order's", other.number, token],
      ["a tab grant", mine.number, tab],
      ["not a token", mine.number, "not-a-token"],
    ] as const) {
      const answer = await exchange(number, bad);
      expect(answer.status, label).toBe(403);
      expect(answer.body.data, label).toBeUndefined();
      expect(JSON.stringify(answer.body), label).not.toContain(address.street);
    }
    expect(
      (await exchange(mine.number, await signOrderAccess(env, mine.number, "message", now() - 1))).body.message,
    ).toBe("This order link has expired.");
    const ar = await call({ headers: { "content-language": "ar" } }, "POST", `/orders/${mine.number}/access`, {
      token: tamper(token),
    });
    expect(ar.body.message).toBe("رابط الطلب هذا غير صالح.");
  });

  it("a grant opens its order only: not another order, not the order list, the cart or the account", async () => {
    const mine = await placeOrder(await newGuest());
    const other = await placeOrder(await newGuest());
    const grant = (await exchange(mine.number, await signOrderAccess(env, mine.number, "message"))).body.data
      .access as string;
    expect((await call(stranger(grant), "GET", `/orders/${mine.number}`)).status).toBe(200);

    for (const [method, path] of [
      ["GET", `/orders/${other.number}`],
      ["GET", `/orders/${other.number}/invoice`],
      ["POST", `/orders/${other.number}/cancel`],
      ["POST", `/orders/${other.number}/returns`],
    ] as const) {
      const answer = await call(stranger(grant), method, path, method === "POST" ? { items: [] } : undefined);
      expect(answer.status, path).toBe(404);
      expect(JSON.stringify(answer.body), path).not.toContain(other.number);
    }
    for (const path of ["/orders", "/cart", "/client/auth/profile", "/client/addresses"])
      expect((await call(stranger(grant), "GET", path)).status, path).toBe(401);
    // A tampered or expired grant is no grant.
    expect((await call(stranger(tamper(grant)), "GET", `/orders/${mine.number}`)).status).toBe(404);
    const stale = await signOrderAccess(env, mine.number, "tab", now() - 1);
    expect((await call(stranger(stale), "POST", `/orders/${mine.number}/cancel`)).status).toBe(404);
    // Still the order it was, untouched by the refused calls.
    expect((await call(stranger(grant), "GET", `/orders/${mine.number}`)).body.data.status).toBe("pending_payment");
  });

  it("an account's order is its account's: its messages link plainly and no link or grant opens it", async () => {
    const shopper = await newUser();
    const order = await placeOrder(shopper);
    const placed = await messageOf(shopper, order.number, "order.placed");
    expect(placed.body).toContain(`/en/order/checkout/status?order=${order.number}`);
    expect(placed.body).not.toContain("#access=");

    const forged = await signOrderAccess(env, order.number, "message");
    expect((await exchange(order.number, forged)).status).toBe(403);
    const grant = await signOrderAccess(env, order.number, "tab");
    expect((await call(stranger(grant), "GET", `/orders/${order.number}`)).status).toBe(404);
    // Signed out, it asks for sign-in (the page then comes back to it).
    expect((await call(stranger(), "GET", `/orders/${order.number}/invoice`)).status).toBe(401);
    expect((await call(shopper, "GET", `/orders/${order.number}`)).status).toBe(200);
  });
});

describe("tracking leads to the order's page", () => {
  it("a guest's order found by number and email comes with a grant for its page; an account's order without", async () => {
    const guest = await newGuest();
    const order = await placeOrder(guest);
    const tracked = await call(null, "POST", "/orders/track", { number: order.number, contact: guest.email });
    expect(tracked.status).toBe(200);
    const grant = (tracked.body.meta?.access as { access: string }).access;
    const page = await call(stranger(grant), "GET", `/orders/${order.number}`);
    expect(page.status).toBe(200);
    expect(page.body.data.self_service).toMatchObject({ can_cancel: true });
    expect((await call(stranger(grant), "POST", `/orders/${order.number}/cancel`)).body.data.status).toBe("cancelled");

    const wrong = await call(null, "POST", "/orders/track", { number: order.number, contact: "x@example.com" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.meta).toBeUndefined();

    const shopper = await newUser();
    const theirs = await placeOrder(shopper);
    const byAccount = await call(null, "POST", "/orders/track", { number: theirs.number, contact: shopper.email });
    expect(byAccount.status).toBe(200);
    expect(byAccount.body.meta).toBeUndefined();
  });
});
