import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { runScheduledWork } from "../../worker/backend/jobs";
import { CATCH_UP_DAYS } from "../../worker/backend/services/reviews/invitations";
import { unsubscribeToken } from "../../worker/backend/services/messages/unsubscribe";
import { freshPhone } from "../support/accounts";
import { call, checkoutWith, createProduct, newGuest, newUser, type Shopper } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import { payOrder } from "../support/orders";
import { deliver, goodReview, orderOf, postReview, sentTo, setReviewSettings } from "../support/reviews";

/**
 * Review invitations (services/reviews/invitations.ts): the cron invites the buyer of each order
 * with an account `invitation_days` after its delivery, once, by email and SMS in the order's
 * language, with a link to review its products; never when they reviewed them all, never to one
 * who stopped the topic, never when invitations are off.
 */

let owner: Staff;
let manager: Staff;

beforeAll(async () => {
  [owner, manager] = await Promise.all([newStaff("owner"), newStaff("manager")]);
  await setReviewSettings(owner, { invitation_days: 7 });
});

const DAY = 86_400_000;

/** Moves an order's delivery back in time, as if the days had passed. */
async function deliveredDaysAgo(number: string, days: number): Promise<void> {
  await env.DB.prepare("UPDATE orders SET delivered_at = ? WHERE number = ?")
    .bind(new Date(Date.now() - days * DAY).toISOString(), number)
    .run();
}

const rowsOf = async (number: string) =>
  (
    await env.DB.prepare(
      `SELECT m.key, m.channel, m.recipient, m.lang, m.status, m.params FROM shopper_messages m
       WHERE m.topic = 'review_invitation' AND m.key LIKE 'review_invitation:' || (SELECT id FROM orders WHERE number = ?) || ':%'
       ORDER BY m.key`,
    )
      .bind(number)
      .all<{ key: string; channel: string; recipient: string; lang: string; status: string; params: string }>()
  ).results;

const outcomeOf = (number: string) =>
  env.DB.prepare("SELECT outcome FROM review_invitations WHERE order_id = (SELECT id FROM orders WHERE number = ?)")
    .bind(number)
    .first<string>("outcome");

/** A delivered order of two fresh products, to a phone of its own. */
async function deliveredOrder(shopper: Shopper, phone = freshPhone()) {
  const products = await Promise.all([createProduct(), createProduct()]);
  const number = await orderOf(shopper, manager, products, { phone });
  return { number, products, phone };
}

describe("review invitations", () => {
  it("go out once, days after delivery, by email and SMS in the order's language, linking to the order's products", async () => {
    const shopper = await newUser("ar");
    const { number, phone } = await deliveredOrder(shopper);
    const early = await deliveredOrder(await newUser());

    // Not yet due: delivered today.
    await runScheduledWork(env);
    expect(await rowsOf(number)).toEqual([]);

    await deliveredDaysAgo(number, 8);
    await deliveredDaysAgo(early.number, 3);
    await runScheduledWork(env);
    await runScheduledWork(env);
    const rows = await rowsOf(number);
    expect(rows.map((r) => [r.channel, r.recipient, r.lang])).toEqual([
      ["email", shopper.email, "ar"],
      ["sms", phone, "ar"],
    ]);
    expect(await outcomeOf(number)).toBe("invited");
    expect(await rowsOf(early.number)).toEqual([]);

    const [email] = await sentTo(shopper.email, "shopper.review_invitation");
    expect(email!.subject).toBe(`ما رأيك في طلبك ${number}؟`);
    expect(email!.body).toContain(`/ar/reviews/write?order=${number}`);
    expect(email!.body).toMatch(/\/ar\/unsubscribe\?topic=review_invitation&token=/);
    const [sms] = await sentTo(phone, "shopper.review_invitation");
    expect(sms!.body).toContain(`/ar/reviews/write?order=${number}`);
    // Run twice more: still one of each.
    await runScheduledWork(env);
    expect(await sentTo(shopper.email, "shopper.review_invitation")).toHaveLength(1);
    expect(await sentTo(phone, "shopper.review_invitation")).toHaveLength(1);
  });

  it("owe nothing once the buyer reviewed every product of the order, but still go out for one left", async () => {
    await setReviewSettings(owner, { invitation_days: 7, publish: "hold" });
    const shopper = await newUser();
    const all = await deliveredOrder(shopper);
    for (const p of all.products) expect((await postReview(shopper, goodReview(p))).status).toBe(201);
    const some = await deliveredOrder(shopper);
    expect((await postReview(shopper, goodReview(some.products[0]!))).status).toBe(201);
    await deliveredDaysAgo(all.number, 8);
    await deliveredDaysAgo(some.number, 8);
    await runScheduledWork(env);
    expect(await rowsOf(all.number)).toEqual([]);
    expect(await outcomeOf(all.number)).toBe("reviewed");
    expect((await rowsOf(some.number)).map((r) => r.channel)).toEqual(["email", "sms"]);
    expect(JSON.parse((await rowsOf(some.number))[0]!.params)).toMatchObject({ number: some.number });
  });

  it("are not sent to one who stopped them; guests' orders and orders past the catch-up get none", async () => {
    const shopper = await newUser();
    const { number, phone } = await deliveredOrder(shopper);
    for (const to of [shopper.email, phone]) {
      const token = await unsubscribeToken(env, to, "review_invitation");
      expect((await call(null, "POST", "/unsubscribe", { topic: "review_invitation", token })).status).toBe(200);
    }
    const old = await deliveredOrder(await newUser());
    const guest = await newGuest();
    const product = await createProduct();
    const placed = await checkoutWith(guest, product.id);
    const guestNumber = placed.body.data.number as string;
    await payOrder(guest, guestNumber);
    await deliver(manager, guestNumber);

    await deliveredDaysAgo(number, 8);
    await deliveredDaysAgo(guestNumber, 8);
    await deliveredDaysAgo(old.number, 7 + CATCH_UP_DAYS + 1);
    await runScheduledWork(env);
    await runScheduledWork(env);
    // Written (the topic is stopped for the address, not the order), then skipped, never sent.
    await expect
      .poll(async () => (await rowsOf(number)).map((r) => r.status), { timeout: 10_000 })
      .toEqual(["skipped", "skipped"]);
    expect(await sentTo(shopper.email, "shopper.review_invitation", 0)).toEqual([]);
    expect(await sentTo(phone, "shopper.review_invitation", 0)).toEqual([]);
    expect(await rowsOf(guestNumber)).toEqual([]);
    expect(await rowsOf(old.number)).toEqual([]);
  });

  it("are off with invitation_days 0", async () => {
    await setReviewSettings(owner, { invitation_days: 0 });
    const shopper = await newUser();
    const { number } = await deliveredOrder(shopper);
    await deliveredDaysAgo(number, 30);
    const report = await runScheduledWork(env);
    expect(report.reviewInvitations).toBe(0);
    expect(await rowsOf(number)).toEqual([]);
    expect(await outcomeOf(number)).toBeNull();
    await setReviewSettings(owner, { invitation_days: 7 });
  });
});
