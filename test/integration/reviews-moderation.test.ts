import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { ConsoleReviewsPage } from "../../contract/reviews";
import { call, newUser } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import {
  boughtProduct,
  boughtProducts,
  goodReview,
  orderOf,
  postReview,
  ratingColumns,
  reviewsOf,
  sentTo,
  setReviewSettings,
} from "../support/reviews";

/**
 * The console's moderation of reviews (services/reviews/moderation.ts): the queue, approve,
 * reject with a reason the author is told in their language, the store's reply, dismissing
 * reports; each step audited, each visible change moving the product's rating and the catalogue
 * version, so list cards and cached answers show it.
 */

let owner: Staff;
let manager: Staff;

beforeAll(async () => {
  [owner, manager] = await Promise.all([newStaff("owner"), newStaff("manager")]);
});

const queue = async (who: Staff, status: string) =>
  (await call(who, "GET", `/admin/reviews?status=${status}`)) as unknown as {
    status: number;
    body: ConsoleReviewsPage;
  };

const version = async () =>
  (await env.DB.prepare("SELECT value FROM versions WHERE name = 'catalogue'").first<number>("value"))!;

const auditOf = async (id: number) =>
  (await call(owner, "GET", `/admin/audit?entity=review&entity_id=${id}&sort=created_at&dir=asc`)).body.data as {
    action: string;
    staff_email: string;
    before: Record<string, unknown>;
    after: Record<string, unknown>;
    record: { name: string | null };
  }[];

describe("the moderation queue", () => {
  it("pending reviews wait in the queue oldest first; approve publishes one, with its rating, once, audited", async () => {
    await setReviewSettings(owner, { publish: "hold" });
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager, "Queue speaker");
    const posted = await postReview(shopper, goodReview(product, { rating: 2, body: "call 0551234567" }));
    const id = posted.body.data.id as number;

    const pending = await queue(manager, "pending");
    expect(pending.status).toBe(200);
    const listed = pending.body.data.find((r) => r.id === id)!;
    expect(listed).toMatchObject({
      status: "pending",
      rating: 2,
      flags: ["phone"],
      author: { user_id: shopper.userId, email: shopper.email },
      product: { id: product.id, slug: product.slug },
    });
    expect(listed.order_number).toMatch(/^SQ-/);
    expect(pending.body.counts.pending).toBeGreaterThanOrEqual(1);
    expect(pending.body.meta).toMatchObject({ page: 1, per_page: 20 });
    // Support reads the queue without the authors' email addresses, and cannot moderate.
    const support = await newStaff("support");
    const asSupport = await queue(support, "pending");
    expect(asSupport.body.data.find((r) => r.id === id)!.author.email).toBeNull();
    expect((await call(support, "POST", `/admin/reviews/${id}/approve`)).status).toBe(403);
    // Shoppers do not find the console at all.
    expect((await call(shopper, "GET", "/admin/reviews")).status).toBe(404);

    const before = await version();
    const approved = await call(manager, "POST", `/admin/reviews/${id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.data.status).toBe("published");
    expect(approved.body.message).toBe("Review published.");
    expect(await version()).toBeGreaterThan(before);
    expect(await ratingColumns(product.id)).toEqual({ rating_count: 1, rating_sum: 2 });
    // Approving again changes nothing and writes no second audit line.
    expect((await call(manager, "POST", `/admin/reviews/${id}/approve`)).status).toBe(200);
    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(["review.approve"]);
    expect(audit[0]).toMatchObject({
      staff_email: manager.email,
      before: { review_status: "pending" },
      after: { review_status: "published" },
      record: { name: "Queue speaker" },
    });
    expect((await call(manager, "POST", "/admin/reviews/999999999/approve")).status).toBe(404);
  });

  it("the product's rating stays exact through publish, reject and edit, on list cards and the product page", async () => {
    await setReviewSettings(owner, { publish: "all" });
    const product = (await boughtProducts(await newUser(), manager, 1))[0]!;
    const buyers = await Promise.all([newUser(), newUser(), newUser()]);
    // Each buyer's own delivered order of the same product.
    for (const buyer of buyers) await orderOf(buyer, manager, [product]);
    const ids: number[] = [];
    for (const [i, buyer] of buyers.entries())
      ids.push((await postReview(buyer, goodReview(product, { rating: [5, 4, 1][i] }))).body.data.id);
    expect(await ratingColumns(product.id)).toEqual({ rating_count: 3, rating_sum: 10 });

    const card = async () => {
      const list = await call(null, "GET", `/products?q=&category=commerce-test&per_page=48&sort=newest`);
      const detail = await call(null, "GET", `/products/${product.slug}`);
      const found = (list.body.data as { id: number; rating?: unknown }[]).find((p) => p.id === product.id);
      expect(detail.body.data.rating).toEqual(found?.rating);
      return detail.body.data.rating;
    };
    expect(await card()).toEqual({ count: 3, average: 3.3 });

    // Rejected: out of the rating; the list and the page follow (the catalogue version moved).
    const rejected = await call(manager, "POST", `/admin/reviews/${ids[2]}/reject`, {
      reason: "Not about the product",
    });
    expect(rejected.status).toBe(200);
    expect(await ratingColumns(product.id)).toEqual({ rating_count: 2, rating_sum: 9 });
    expect(await card()).toEqual({ count: 2, average: 4.5 });

    // An edit of a published review under "all": the new rating counts instead of the old.
    await postReview(buyers[0]!, goodReview(product, { rating: 3 }));
    expect(await card()).toEqual({ count: 2, average: 3.5 });

    // Under "hold" an edit takes it out until approved.
    await setReviewSettings(owner, { publish: "hold" });
    await postReview(buyers[1]!, goodReview(product, { rating: 2 }));
    expect(await card()).toEqual({ count: 1, average: 3 });
    await call(manager, "POST", `/admin/reviews/${ids[1]}/approve`);
    expect(await card()).toEqual({ count: 2, average: 2.5 });

    // A rejected review approved after a second look counts again.
    await call(manager, "POST", `/admin/reviews/${ids[2]}/approve`);
    expect(await card()).toEqual({ count: 3, average: 2 });
    const { page } = await reviewsOf(product.slug);
    expect(page.summary).toEqual({ count: 3, average: 2, stars: [1, 1, 1, 0, 0] });

    // A product without reviews carries no rating.
    const bare = await call(null, "GET", `/products/${(await boughtProduct(await newUser(), manager)).slug}`);
    expect(bare.body.data.rating).toBeNull();
  });
});

describe("rejecting a review", () => {
  it("the author is told why, in the language they shop in, with a link to change it; audited", async () => {
    await setReviewSettings(owner, { publish: "all" });
    const shopper = await newUser("ar");
    const product = await boughtProduct(shopper, manager, "Kettle");
    const posted = await postReview(shopper, goodReview(product, { rating: 1, body: "Bad" }));
    const id = posted.body.data.id as number;

    const rejected = await call(manager, "POST", `/admin/reviews/${id}/reject`, {
      reason: "يذكر رقم هاتف شخصي",
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toMatchObject({ status: "rejected", reject_reason: "يذكر رقم هاتف شخصي" });
    expect(await ratingColumns(product.id)).toEqual({ rating_count: 0, rating_sum: 0 });

    const [message] = await sentTo(shopper.email, "shopper.review_decision");
    expect(message).toMatchObject({ lang: "ar", channel: "email" });
    expect(message!.subject).toBe("بخصوص تقييمك لـ جهاز اختبار");
    expect(message!.body).toContain("يذكر رقم هاتف شخصي");
    expect(message!.body).toContain(`/ar/reviews/write?product=${product.slug}`);
    expect(message!.html).toContain('dir="rtl"');

    // The author sees the state and the reason with their review.
    const own = await call(shopper, "GET", `/client/reviews/eligibility?product=${product.slug}`);
    expect(own.body.data.own).toMatchObject({ status: "rejected", reject_reason: "يذكر رقم هاتف شخصي" });

    // Rejecting it again is refused (the author was told once); no second message.
    expect((await call(manager, "POST", `/admin/reviews/${id}/reject`, { reason: "again" })).status).toBe(409);
    expect(await sentTo(shopper.email, "shopper.review_decision", 1)).toHaveLength(1);
    // A reason is required.
    const missing = await call(manager, "POST", `/admin/reviews/${id}/reject`, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors?.reason).toEqual(["Reason is required."]);

    const audit = await auditOf(id);
    expect(audit.map((a) => a.action)).toEqual(["review.reject"]);
    expect(audit[0]!.after).toMatchObject({ review_status: "rejected", reject_reason: "يذكر رقم هاتف شخصي" });
  });

  it("an English shopper is told in English", async () => {
    await setReviewSettings(owner, { publish: "all" });
    const shopper = await newUser("en");
    const product = await boughtProduct(shopper, manager);
    const id = (await postReview(shopper, goodReview(product))).body.data.id;
    await call(manager, "POST", `/admin/reviews/${id}/reject`, { reason: "Mentions another shop" });
    const [message] = await sentTo(shopper.email, "shopper.review_decision");
    expect(message).toMatchObject({ lang: "en" });
    expect(message!.subject).toBe("About your review of Test gadget");
    expect(message!.body).toContain("We could not publish your review of Test gadget: Mentions another shop");
    expect(message!.body).toMatch(/\/en\/unsubscribe\?topic=review_decision&token=/);
  });
});

describe("the store's reply and reports", () => {
  it("a reply is published with the review, can be removed, and is audited", async () => {
    await setReviewSettings(owner, { publish: "all" });
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager);
    const id = (await postReview(shopper, goodReview(product))).body.data.id;
    const before = await version();
    const replied = await call(manager, "PUT", `/admin/reviews/${id}/reply`, {
      text: "Thank you! <b>Glad</b> it works.",
      lang: "en",
    });
    expect(replied.status).toBe(200);
    expect(await version()).toBeGreaterThan(before);
    const { page } = await reviewsOf(product.slug);
    expect(page.data[0]!.reply).toMatchObject({ text: "Thank you! <b>Glad</b> it works." });
    expect(page.data[0]!.reply!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const removed = await call(manager, "PUT", `/admin/reviews/${id}/reply`, { text: "", lang: "en" });
    expect(removed.body.message).toBe("Reply removed.");
    expect((await reviewsOf(product.slug)).page.data[0]!.reply).toBeNull();
    expect((await call(manager, "PUT", `/admin/reviews/${id}/reply`, { text: "x", lang: "fr" })).status).toBe(422);
    expect((await auditOf(id)).map((a) => a.action)).toEqual(["review.reply", "review.reply"]);
  });

  it("reported reviews wait in their own queue until staff dismiss the reports or reject the review", async () => {
    await setReviewSettings(owner, { publish: "all" });
    const shopper = await newUser();
    const [a, b] = await boughtProducts(shopper, manager, 2);
    const first = (await postReview(shopper, goodReview(a!))).body.data.id as number;
    const second = (await postReview(shopper, goodReview(b!))).body.data.id as number;
    const reporters = await Promise.all([newUser(), newUser()]);
    for (const who of reporters) {
      expect((await call(who, "POST", `/reviews/${first}/report`, { reason: "spam" })).status).toBe(204);
      expect((await call(who, "POST", `/reviews/${second}/report`, { reason: "offensive" })).status).toBe(204);
    }
    const reported = await queue(manager, "reported");
    const row = reported.body.data.find((r) => r.id === first)!;
    expect(row.reports.map((r) => r.reason)).toEqual(["spam", "spam"]);
    expect(reported.body.counts.reported).toBeGreaterThanOrEqual(2);

    const dismissed = await call(manager, "POST", `/admin/reviews/${first}/dismiss-reports`);
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.data).toMatchObject({ status: "published", reports: [] });
    const rejected = await call(manager, "POST", `/admin/reviews/${second}/reject`, { reason: "Offensive words" });
    expect(rejected.body.data.reports).toEqual([]);
    const after = await queue(manager, "reported");
    expect(after.body.data.map((r) => r.id)).not.toContain(first);
    expect(after.body.data.map((r) => r.id)).not.toContain(second);
    expect((await auditOf(first)).map((a) => a.action)).toEqual(["review.dismiss_reports"]);
    // A reporter whose report was dealt with cannot report the same review again.
    await call(reporters[0]!, "POST", `/reviews/${first}/report`, { reason: "spam" });
    expect((await queue(manager, "reported")).body.data.map((r) => r.id)).not.toContain(first);
  });
});
