import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { REVIEWS_PER_PAGE } from "../../contract/reviews";
import { awayFromMinuteEdge, COUNTING_TIMEOUT } from "../support/accounts";
import { call, createProduct, freshIp, newGuest, newUser, type Shopper, type TestProduct } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import { boughtProduct, goodReview, orderOf, postReview, reviewsOf, setReviewSettings } from "../support/reviews";

/**
 * Reading a product's reviews (GET /catalogue/products/{slug}/reviews): published ones only, with
 * the summary of all of them, sorted, filtered by stars and language, paged; cached under the
 * catalogue version. Shoppers' helpful votes and reports count once each, and every write is rate
 * limited per account (or guest) and per network.
 */

let owner: Staff;
let manager: Staff;
let product: TestProduct;
/** Twelve published reviews of `product` and one pending, by thirteen buyers. */
let authors: Shopper[];
const ids: number[] = [];

// Stars and languages of the twelve: 5,4,4,3,... so each sort and filter has a clear answer.
const WRITTEN = [
  { rating: 5, lang: "en" },
  { rating: 4, lang: "ar" },
  { rating: 4, lang: "en" },
  { rating: 3, lang: "en" },
  { rating: 5, lang: "ar" },
  { rating: 1, lang: "en" },
  { rating: 2, lang: "en" },
  { rating: 5, lang: "en" },
  { rating: 4, lang: "en" },
  { rating: 3, lang: "ar" },
  { rating: 5, lang: "en" },
  { rating: 4, lang: "en" },
] as const;

beforeAll(async () => {
  [owner, manager] = await Promise.all([newStaff("owner"), newStaff("manager")]);
  product = await createProduct({ stock: 100, name: "Reviewed router" });
  authors = await Promise.all(WRITTEN.map(() => newUser()));
  for (const author of authors) await orderOf(author, manager, [product]);
  await setReviewSettings(owner, { publish: "all" });
  for (const [i, w] of WRITTEN.entries()) {
    const posted = await postReview(
      authors[i]!,
      goodReview(product, { rating: w.rating, lang: w.lang, title: `Review ${i + 1}` }),
    );
    expect(posted.status).toBe(201);
    ids.push(posted.body.data.id);
  }
  // One more, held for a moderator: never shown.
  await setReviewSettings(owner, { publish: "hold" });
  const late = await newUser();
  await orderOf(late, manager, [product]);
  expect((await postReview(late, goodReview(product, { rating: 1, title: "Held" }))).body.data.status).toBe("pending");
}, 120_000);

describe("a product's reviews", () => {
  it("carries the summary of every published review and the newest first, ten a page", async () => {
    const { status, page } = await reviewsOf(product.slug);
    expect(status).toBe(200);
    expect(page.summary).toEqual({ count: 12, average: 3.8, stars: [1, 1, 2, 4, 4] });
    expect(page.meta).toEqual({ page: 1, per_page: REVIEWS_PER_PAGE, total: 12, last_page: 2 });
    expect(page.data.map((r) => r.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Review ${12 - i}`));
    expect(page.data[0]).toMatchObject({ verified_buyer: true, helpful_count: 0, edited: false, reply: null });
    const second = await reviewsOf(product.slug, "?page=2");
    expect(second.page.data.map((r) => r.title)).toEqual(["Review 2", "Review 1"]);
    expect((await reviewsOf(product.slug, "?page=3")).page.data).toEqual([]);
    expect(JSON.stringify(page)).not.toContain("Held");
  });

  it("sorts by stars either way and filters by stars and language", async () => {
    const highest = (await reviewsOf(product.slug, "?sort=highest")).page.data.map((r) => r.rating);
    expect(highest).toEqual([5, 5, 5, 5, 4, 4, 4, 4, 3, 3]);
    const lowest = (await reviewsOf(product.slug, "?sort=lowest")).page.data.map((r) => r.rating);
    expect(lowest).toEqual([1, 2, 3, 3, 4, 4, 4, 4, 5, 5]);
    const fives = await reviewsOf(product.slug, "?stars=5");
    expect(fives.page.data.map((r) => r.title)).toEqual(["Review 11", "Review 8", "Review 5", "Review 1"]);
    expect(fives.page.meta.total).toBe(4);
    // The summary stays the whole product's whatever the filter.
    expect(fives.page.summary.count).toBe(12);
    const arabic = await reviewsOf(product.slug, "?lang=ar&sort=lowest");
    expect(arabic.page.data.map((r) => r.title)).toEqual(["Review 10", "Review 2", "Review 5"]);
    const both = await reviewsOf(product.slug, "?lang=ar&stars=4");
    expect(both.page.data.map((r) => r.title)).toEqual(["Review 2"]);
    for (const bad of ["?sort=best", "?stars=6", "?lang=fr", "?page=0"])
      expect((await reviewsOf(product.slug, bad)).status, bad).toBe(422);
    expect((await reviewsOf("no-such-product")).status).toBe(404);
  });

  it("sorts by helpful votes, each voter counted once, the author never", async () => {
    const [guest, user] = await Promise.all([newGuest(), newUser()]);
    const target = ids[3]!;
    const first = await call(guest, "POST", `/reviews/${target}/helpful`);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ helpful_count: 1 });
    expect((await call(guest, "POST", `/reviews/${target}/helpful`)).body.data).toEqual({ helpful_count: 1 });
    expect((await call(user, "POST", `/reviews/${target}/helpful`)).body.data).toEqual({ helpful_count: 2 });
    expect((await call(user, "POST", `/reviews/${ids[0]}/helpful`)).body.data).toEqual({ helpful_count: 1 });
    const own = await call(authors[3]!, "POST", `/reviews/${target}/helpful`);
    expect(own.status).toBe(403);
    expect(own.body.message).toBe("You cannot mark your own review as helpful.");
    expect((await call(null, "POST", `/reviews/${target}/helpful`)).status).toBe(401);
    expect((await call(guest, "POST", "/reviews/999999999/helpful")).status).toBe(404);

    const helpful = await reviewsOf(product.slug, "?sort=helpful&page=1");
    expect(helpful.page.data.slice(0, 2).map((r) => [r.title, r.helpful_count])).toEqual([
      ["Review 4", 2],
      ["Review 1", 1],
    ]);
  });

  it("a pending or rejected review cannot be voted on or reported", async () => {
    const held = await call(manager, "GET", "/admin/reviews?status=pending");
    const id = (held.body as unknown as { data: { id: number; title: string }[] }).data.find(
      (r) => r.title === "Held",
    )!.id;
    const guest = await newGuest();
    expect((await call(guest, "POST", `/reviews/${id}/helpful`)).status).toBe(404);
    expect((await call(guest, "POST", `/reviews/${id}/report`, { reason: "spam" })).status).toBe(404);
  });

  it("reports count once per caller, with a reason from the list", async () => {
    const guest = await newGuest();
    const target = ids[5]!;
    expect((await call(guest, "POST", `/reviews/${target}/report`, { reason: "spam" })).status).toBe(204);
    expect((await call(guest, "POST", `/reviews/${target}/report`, { reason: "offensive" })).status).toBe(204);
    const bad = await call(guest, "POST", `/reviews/${target}/report`, { reason: "boring" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors?.reason).toEqual(["Choose why you are reporting this review."]);
    const queue = await call(manager, "GET", "/admin/reviews?status=reported");
    const row = (queue.body as unknown as { data: { id: number; reports: { reason: string }[] }[] }).data.find(
      (r) => r.id === target,
    )!;
    expect(row.reports.map((r) => r.reason)).toEqual(["spam"]);
  });

  it("is cached like the catalogue, and a moderation step shows at once", async () => {
    const url = `http://shop.test/backend/catalogue/products/${product.slug}/reviews?sort=lowest`;
    const read = () => SELF.fetch(url, { headers: { "content-language": "en", "cf-connecting-ip": freshIp() } });
    const first = await read();
    expect(first.headers.get("cache-control")).toBe("public, max-age=30, stale-while-revalidate=300");
    expect(first.headers.get("x-catalogue-version")).toMatch(/^\d+$/);
    await first.arrayBuffer();
    const again = await read();
    expect(again.headers.get("x-cache")).toBe("HIT");
    await again.arrayBuffer();
    // The lowest review rejected: the next read is built afresh without it.
    await call(manager, "POST", `/admin/reviews/${ids[5]}/reject`, { reason: "Spam" });
    const after = await read();
    const body = (await after.json()) as { data: { rating: number }[]; summary: { count: number } };
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(body.summary.count).toBe(11);
    expect(body.data[0]!.rating).toBe(2);
  });
});

describe("rate limits", () => {
  it(
    "an account past 20 review writes a minute is refused with 429, counted before the form is read",
    async () => {
      await awayFromMinuteEdge();
      const spammer = await newUser();
      for (let i = 0; i < 20; i++) expect((await call(spammer, "POST", "/client/reviews", {})).status).toBe(422);
      const refused = await call(spammer, "POST", "/client/reviews", {});
      expect(refused.status).toBe(429);
      expect(refused.body.message).toBe("You are sending reviews too quickly. Wait a minute and try again.");
      // Another account is not held back by it.
      const other = await newUser();
      expect((await call(other, "POST", "/client/reviews", {})).status).toBe(422);
    },
    COUNTING_TIMEOUT,
  );

  it(
    "a guest past 20 votes or reports a minute is refused with 429",
    async () => {
      await awayFromMinuteEdge();
      const guest = await newGuest();
      for (let i = 0; i < 20; i++)
        expect((await call(guest, "POST", `/reviews/${ids[i % 2]}/helpful`)).status).toBe(200);
      expect((await call(guest, "POST", `/reviews/${ids[0]}/report`, { reason: "spam" })).status).toBe(429);
      expect((await call(guest, "POST", `/reviews/${ids[1]}/helpful`)).status).toBe(429);
    },
    COUNTING_TIMEOUT,
  );
});

describe("the product detail and lists", () => {
  it("carry the product's rating for the stars on its card", async () => {
    const detail = await call(null, "GET", `/products/${product.slug}`);
    // Twelve published, the one-star one rejected since: eleven, 44 stars.
    expect(detail.body.data.rating).toEqual({ count: 11, average: 4 });
    const fresh = await boughtProduct(await newUser(), manager);
    const list = await call(null, "GET", "/products?category=commerce-test&per_page=48");
    const cards = list.body.data as { id: number; rating: unknown }[];
    expect(cards.find((p) => p.id === product.id)?.rating).toEqual({ count: 11, average: 4 });
    expect(cards.find((p) => p.id === fresh.id)?.rating).toBeNull();
  });
});
