import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { REVIEW_PHOTO_MAX_BYTES, REVIEW_PHOTOS_MAX, type OwnReview } from "../../contract/reviews";
import { call, createProduct, newUser } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import {
  boughtProduct,
  boughtProducts,
  goodReview,
  orderOf,
  png,
  postReview,
  ratingColumns,
  reviewsOf,
  setReviewSettings,
} from "../support/reviews";

/**
 * Writing a review (contract/reviews.ts, services/reviews/shopper.ts): only a verified buyer (a
 * delivered order of theirs holds the product), one per product per account (posting again edits
 * it), every field checked with its own message, photos sniffed and stored in R2, the text
 * screened, and the store's publishing rule applied, with the product's rating kept exact.
 */

let owner: Staff;
let manager: Staff;

beforeAll(async () => {
  [owner, manager] = await Promise.all([newStaff("owner"), newStaff("manager")]);
});

const objectCount = async (prefix: string) => (await env.MEDIA.list({ prefix })).objects.length;

describe("the reviews settings section", () => {
  it("reads its defaults until an owner saves it, and checks each field", async () => {
    const fresh = await call(owner, "GET", "/admin/settings");
    expect(fresh.body.data.values.reviews).toEqual({
      publish: "clean",
      screen_links: true,
      screen_contacts: true,
      blocked_words: [],
      invitation_days: 7,
    });
    const bad = await call(owner, "PUT", "/admin/settings/reviews", {
      publish: "sometimes",
      screen_links: "yes",
      screen_contacts: true,
      blocked_words: ["x".repeat(61)],
      invitation_days: 91,
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? {}).sort()).toEqual([
      "blocked_words.0",
      "invitation_days",
      "publish",
      "screen_links",
    ]);
    const saved = await call(owner, "PUT", "/admin/settings/reviews", {
      publish: "hold",
      screen_links: false,
      screen_contacts: true,
      blocked_words: [" Scam ", "scam", "", "احتيال"],
      invitation_days: 0,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.values.reviews).toEqual({
      publish: "hold",
      screen_links: false,
      screen_contacts: true,
      blocked_words: ["Scam", "احتيال"],
      invitation_days: 0,
    });
    // Managers do not change store settings.
    expect((await call(manager, "PUT", "/admin/settings/reviews", saved.body.data.values.reviews)).status).toBe(403);
  });
});

describe("who may review", () => {
  it("a shopper with no delivered order holding the product is refused with a 403 that says so", async () => {
    const shopper = await newUser();
    const product = await createProduct();
    const refused = await postReview(shopper, goodReview(product));
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/once an order of yours holding it has been delivered/);

    // Bought but not delivered yet: still refused, and the eligibility says so.
    await orderOf(shopper, manager, [product], { delivered: false });
    expect((await postReview(shopper, goodReview(product))).status).toBe(403);
    const eligibility = await call(shopper, "GET", `/client/reviews/eligibility?product=${product.slug}`);
    expect(eligibility.body.data).toEqual({ can_review: false, own: null });

    // Someone else's delivered order of it does not make this shopper a buyer.
    const other = await newUser();
    await orderOf(other, manager, [product]);
    expect((await postReview(shopper, goodReview(product))).status).toBe(403);
    expect((await postReview(other, goodReview(product))).status).toBe(201);
  });

  it("signed out is a 401, an unknown product a 404", async () => {
    const product = await createProduct();
    expect((await postReview(null, goodReview(product))).status).toBe(401);
    const shopper = await newUser();
    expect((await postReview(shopper, { ...goodReview(product), product: "no-such-product" })).status).toBe(404);
  });

  it("the products of an order to review: the caller's delivered order only; another's order is a 404", async () => {
    const shopper = await newUser("ar");
    const [a, b] = await Promise.all([createProduct({ name: "Cable" }), createProduct({ name: "Charger" })]);
    const number = await orderOf(shopper, manager, [a, b]);
    const listed = await call(shopper, "GET", `/client/reviews/reviewable?order=${number}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((p: { slug: string }) => p.slug)).toEqual([a.slug, b.slug]);
    // In the request's language, each with the shopper's own review once written.
    expect(listed.body.data[0].name).toBe("جهاز اختبار");
    expect(listed.body.data[0].own).toBeNull();
    expect((await postReview(shopper, goodReview(a))).status).toBe(201);
    const again = await call(shopper, "GET", `/client/reviews/reviewable?order=${number}`);
    expect(again.body.data[0].own.product_slug).toBe(a.slug);
    expect(again.body.data[1].own).toBeNull();

    const stranger = await newUser();
    expect((await call(stranger, "GET", `/client/reviews/reviewable?order=${number}`)).status).toBe(404);
    expect((await call(shopper, "GET", "/client/reviews/reviewable?order=SQ-NOSUCH00")).status).toBe(404);
    expect((await call(null, "GET", `/client/reviews/reviewable?order=${number}`)).status).toBe(401);

    const pending = await orderOf(shopper, manager, [await createProduct()], { delivered: false });
    const early = await call(shopper, "GET", `/client/reviews/reviewable?order=${pending}`);
    expect(early.status).toBe(403);
  });
});

describe("one review per product per account", () => {
  it("posting again edits the review: one row, the new words, marked edited once it had been published", async () => {
    await setReviewSettings(owner, { publish: "all" });
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager);
    const first = await postReview(shopper, goodReview(product, { rating: 5, title: "Great" }));
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ status: "published", rating: 5, title: "Great", edited: false });

    const second = await postReview(shopper, goodReview(product, { rating: 2, title: "Broke after a week" }));
    expect(second.status).toBe(200);
    const own: OwnReview = second.body.data;
    expect(own).toMatchObject({ id: first.body.data.id, rating: 2, title: "Broke after a week", edited: true });
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM reviews WHERE product_id = ?")
      .bind(product.id)
      .first();
    expect(rows).toEqual({ n: 1 });
    expect(await ratingColumns(product.id)).toEqual({ rating_count: 1, rating_sum: 2 });

    const eligibility = await call(shopper, "GET", `/client/reviews/eligibility?product=${product.slug}`);
    expect(eligibility.body.data.can_review).toBe(true);
    expect(eligibility.body.data.own).toMatchObject({ id: own.id, rating: 2, status: "published" });
  });
});

describe("every field is checked", () => {
  it("answers 422 with a message per field, in the request's language, and writes nothing", async () => {
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager);
    const bad = await postReview(shopper, {
      product: product.slug,
      rating: 6,
      title: "   ",
      body: "x".repeat(4001),
      lang: "fr",
      author_name: "n".repeat(61),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      rating: ["Choose from 1 to 5 stars."],
      title: ["Title is required."],
      body: ["Review may not be longer than 4000 characters."],
      lang: ["Language is not valid."],
      author_name: ["Name shown may not be longer than 60 characters."],
    });
    const none = await postReview(
      { headers: { ...shopper.headers, "content-language": "ar" } },
      { product: product.slug },
    );
    expect(none.status).toBe(422);
    expect(none.body.errors?.rating).toEqual(["التقييم مطلوب."]);
    expect(none.body.errors?.body).toEqual(["المراجعة مطلوب."]);
    const stored = await env.DB.prepare("SELECT COUNT(*) AS n FROM reviews WHERE product_id = ?")
      .bind(product.id)
      .first();
    expect(stored).toEqual({ n: 0 });
  });

  it("a body of another type than a form or JSON is a 415", async () => {
    const shopper = await newUser();
    const res = await SELF.fetch("http://shop.test/backend/client/reviews", {
      method: "POST",
      headers: { ...shopper.headers, "content-type": "text/plain" },
      body: "rating=5",
    });
    expect(res.status).toBe(415);
  });

  it("a JSON body with the same fields is taken too (no photos)", async () => {
    await setReviewSettings(owner, { publish: "hold" });
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager);
    const posted = await call(shopper, "POST", "/client/reviews", { ...goodReview(product), rating: 3 });
    expect(posted.status).toBe(201);
    expect(posted.body.data).toMatchObject({ rating: 3, status: "pending", photos: [] });
  });
});

describe("text is stored and returned as it was written", () => {
  it("markup and script in a review come back verbatim, for the storefront to render as text", async () => {
    await setReviewSettings(owner, { publish: "all" });
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager);
    const title = `<script>alert("x")</script> & <b>bold</b>`;
    const body = `<img src=x onerror=alert(1)> "quoted" 'single' \u202Eright-to-left`;
    const posted = await postReview(shopper, goodReview(product, { title, body, author_name: "<i>Sara</i>" }));
    expect(posted.status).toBe(201);
    const list = await call(null, "GET", `/catalogue/products/${product.slug}/reviews`);
    expect(list.body.data[0]).toMatchObject({ title, body, author_name: "<i>Sara</i>" });
  });

  it("the language is the one chosen, else Arabic when the text has Arabic letters; the name defaults to the first name", async () => {
    await setReviewSettings(owner, { publish: "all" });
    const shopper = await newUser();
    await env.DB.prepare("UPDATE users SET name = 'Noura Al-Qahtani' WHERE id = ?").bind(shopper.userId).run();
    const [a, b, c] = await boughtProducts(shopper, manager, 3);
    const arabic = await postReview(shopper, goodReview(a, { title: "ممتاز", body: "الشحن سريع جدًا" }));
    expect(arabic.body.data).toMatchObject({ lang: "ar", author_name: "Noura" });
    const english = await postReview(shopper, goodReview(b));
    expect(english.body.data.lang).toBe("en");
    const chosen = await postReview(shopper, goodReview(c, { lang: "ar", author_name: "N." }));
    expect(chosen.body.data).toMatchObject({ lang: "ar", author_name: "N." });
  });
});

describe("photos", () => {
  it("a text file named .jpg is refused with a 422 on photos, and nothing is stored", async () => {
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager);
    const before = await objectCount("reviews/");
    const text = new TextEncoder().encode("not an image at all, only words in a file\n".repeat(4));
    const refused = await postReview(
      shopper,
      goodReview(product, { photos: [{ bytes: text, name: "holiday.jpg", type: "image/jpeg" }] }),
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.photos).toEqual(["Photo 1 is not a JPEG, PNG or WebP image."]);
    // An SVG (which can carry script) is refused the same way, whatever it claims to be.
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const svgRefused = await postReview(
      shopper,
      goodReview(product, { photos: [{ bytes: svg, name: "x.png", type: "image/png" }] }),
    );
    expect(svgRefused.status).toBe(422);
    expect(await objectCount("reviews/")).toBe(before);
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM reviews WHERE product_id = ?").bind(product.id).first())!.n,
    ).toBe(0);
  });

  it("sizes are checked: bytes, pixels, a thumbnail's side, the number of photos, one thumbnail per photo", async () => {
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager);
    const big = new Uint8Array(REVIEW_PHOTO_MAX_BYTES + 1);
    big.set(png(100, 100));
    const cases: [Partial<Parameters<typeof goodReview>[1]>, string, string][] = [
      [{ photos: [{ bytes: big }] }, "photos", "Photo 1 is larger than 5 MB."],
      [{ photos: [{ bytes: png(100, 9000) }] }, "photos", "Photo 1 is larger than 8192 pixels on a side."],
      [{ photos: [{ bytes: png(7000, 7000) }] }, "photos", "Photo 1 is larger than 8192 pixels on a side."],
      [
        { photos: [{ bytes: png(1600, 1200) }], thumbs: [{ bytes: png(640, 480) }] },
        "thumbs",
        "Thumbnail 1 is larger than 320 pixels on a side.",
      ],
      [
        { photos: [{ bytes: png(1600, 1200) }, { bytes: png(1600, 1200) }], thumbs: [{ bytes: png(320, 240) }] },
        "thumbs",
        "Send one thumbnail for each photo, in the same order.",
      ],
      [
        { photos: Array.from({ length: REVIEW_PHOTOS_MAX + 1 }, () => ({ bytes: png(10, 10) })) },
        "photos",
        "A review holds at most 4 photos.",
      ],
    ];
    for (const [extra, field, message] of cases) {
      const refused = await postReview(shopper, goodReview(product, extra));
      expect(refused.status, message).toBe(422);
      expect(refused.body.errors?.[field], message).toEqual([message]);
    }
  });

  it("a photo and its thumbnail are stored under their own keys and served with their type, nosniff and a long cache", async () => {
    await setReviewSettings(owner, { publish: "all" });
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager);
    const display = png(1600, 1200);
    const thumb = png(320, 240);
    const posted = await postReview(
      shopper,
      goodReview(product, { photos: [{ bytes: display }], thumbs: [{ bytes: thumb }] }),
    );
    expect(posted.status).toBe(201);
    const [photo] = posted.body.data.photos;
    expect(photo).toMatchObject({ width: 1600, height: 1200 });
    expect(photo.url).toMatch(/^\/backend\/media\/reviews\/[a-f0-9]{32}\.png$/);
    expect(photo.thumb).toMatch(/^\/backend\/media\/reviews\/[a-f0-9]{32}\.png$/);
    expect(photo.thumb).not.toBe(photo.url);
    expect(photo.url).toBe(`/backend/media/reviews/${photo.key}`);

    for (const [url, bytes] of [
      [photo.url, display],
      [photo.thumb, thumb],
    ] as const) {
      const res = await SELF.fetch(`http://shop.test${url}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    }
    expect(
      (await SELF.fetch("http://shop.test/backend/media/reviews/00000000000000000000000000000000.png")).status,
    ).toBe(404);
    expect((await SELF.fetch("http://shop.test/backend/media/reviews/..%2Fsecret.png")).status).toBe(422);

    // The public list shows it too.
    const list = await call(null, "GET", `/catalogue/products/${product.slug}/reviews`);
    expect(list.body.data[0].photos).toEqual([photo]);
  });

  it("without JavaScript a form sends only the photo: it is its own thumbnail", async () => {
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager);
    const posted = await postReview(shopper, goodReview(product, { photos: [{ bytes: png(4032, 3024) }] }));
    expect(posted.status).toBe(201);
    const [photo] = posted.body.data.photos;
    expect(photo.thumb).toBe(photo.url);
    expect(photo).toMatchObject({ width: 4032, height: 3024 });
  });

  it("an edit keeps the photos keep_photos names, or all of them without the field; a photo may be deleted alone", async () => {
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager);
    const first = await postReview(
      shopper,
      goodReview(product, { photos: [{ bytes: png(20, 20) }, { bytes: png(30, 30) }] }),
    );
    const [a, b] = first.body.data.photos;
    // No keep_photos: both stay and the new one follows them.
    const added = await postReview(shopper, goodReview(product, { photos: [{ bytes: png(40, 40) }] }));
    const c = added.body.data.photos[2];
    expect(added.body.data.photos.map((p: { key: string }) => p.key)).toEqual([a.key, b.key, c.key]);
    // keep_photos names b and c: a goes, from the review and from R2.
    const kept = await postReview(shopper, goodReview(product, { keep_photos: [c.key, b.key, "not-a-key"] }));
    expect(kept.body.data.photos.map((p: { key: string }) => p.key)).toEqual([b.key, c.key]);
    expect(await env.MEDIA.head(`reviews/${a.key}`)).toBeNull();
    expect(await env.MEDIA.head(`reviews/${b.key}`)).not.toBeNull();
    // DELETE the first photo (index 0) alone.
    const deleted = await call(shopper, "DELETE", `/client/reviews/${kept.body.data.id}/photos/0`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.photos.map((p: { key: string }) => p.key)).toEqual([c.key]);
    // Someone else cannot delete it; an index past the end is a 404.
    const stranger = await newUser();
    expect((await call(stranger, "DELETE", `/client/reviews/${kept.body.data.id}/photos/0`)).status).toBe(404);
    expect((await call(shopper, "DELETE", `/client/reviews/${kept.body.data.id}/photos/3`)).status).toBe(404);
    // An empty keep_photos removes every photo.
    const none = await postReview(shopper, goodReview(product, { keep_photos: [] }));
    expect(none.body.data.photos).toEqual([]);
    expect(await env.MEDIA.head(`reviews/${c.key}`)).toBeNull();
  });
});

describe("screening and the publishing rule", () => {
  const flagsOf = async (id: number) =>
    JSON.parse(
      (await env.DB.prepare("SELECT flags FROM reviews WHERE id = ?").bind(id).first<{ flags: string | null }>())!
        .flags ?? "[]",
    );

  it("links, email addresses, phone numbers (Saudi, international, Arabic-Indic digits) and listed words are flagged", async () => {
    await setReviewSettings(owner, { publish: "clean", blocked_words: ["scam", "احتيال"] });
    const shopper = await newUser();
    const cases: [string, string[]][] = [
      ["Cheaper at https://example.org/deal", ["link"]],
      ["see www.deals-here.sa", ["link"]],
      ["order from gadgets.com today", ["link"]],
      ["write to seller@example.com", ["email"]],
      ["call me on 0551234567", ["phone"]],
      ["واتساب ٠٥٥ ١٢٣ ٤٥٦٧", ["phone"]],
      ["+966 55 123 4567 for details", ["phone"]],
      ["international +44 20 7946 0958", ["phone"]],
      ["this is a scam", ["word"]],
      ["هذا احتيال واضح", ["word"]],
      ["Weighs 1.5 kg, 65 inch screen, 256 GB, rated 4.5 i.e. good", []],
    ];
    const products = await boughtProducts(shopper, manager, cases.length);
    for (const [i, [body, flags]] of cases.entries()) {
      const product = products[i]!;
      const posted = await postReview(shopper, goodReview(product, { body }));
      expect(posted.status, body).toBe(201);
      expect(await flagsOf(posted.body.data.id), body).toEqual(flags);
      // Under "clean": flagged reviews wait, clean ones are published at once.
      expect(posted.body.data.status, body).toBe(flags.length ? "pending" : "published");
    }
  });

  it("screening links and contact details can be turned off; words are checked whole", async () => {
    await setReviewSettings(owner, {
      publish: "clean",
      screen_links: false,
      screen_contacts: false,
      blocked_words: ["scam"],
    });
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager);
    const posted = await postReview(
      shopper,
      goodReview(product, { body: "https://example.org, a@b.com, 0551234567 and no scamming here" }),
    );
    expect(await flagsOf(posted.body.data.id)).toEqual([]);
    expect(posted.body.data.status).toBe("published");
  });

  it("hold: every review waits; all: every review is published at once, flagged or not", async () => {
    const shopper = await newUser();
    const [first, second] = await boughtProducts(shopper, manager, 2);
    await setReviewSettings(owner, { publish: "hold" });
    const held = await postReview(shopper, goodReview(first!));
    expect(held.body.data.status).toBe("pending");
    expect(held.body.message).toBe("Thank you: your review will appear once our team has checked it.");
    await setReviewSettings(owner, { publish: "all" });
    const flagged = await postReview(shopper, goodReview(second!, { body: "mail me at x@y.com" }));
    expect(flagged.body.data.status).toBe("published");
    expect(flagged.body.message).toBe("Thank you: your review is published.");
    expect(await flagsOf(flagged.body.data.id)).toEqual(["email"]);
  });

  it("an edit goes through the rule again: under hold a published review leaves the page until approved", async () => {
    await setReviewSettings(owner, { publish: "all" });
    const shopper = await newUser();
    const product = await boughtProduct(shopper, manager);
    await postReview(shopper, goodReview(product, { rating: 5 }));
    expect(await ratingColumns(product.id)).toEqual({ rating_count: 1, rating_sum: 5 });
    await setReviewSettings(owner, { publish: "hold" });
    const edited = await postReview(shopper, goodReview(product, { rating: 3 }));
    expect(edited.body.data.status).toBe("pending");
    expect(await ratingColumns(product.id)).toEqual({ rating_count: 0, rating_sum: 0 });
    expect((await reviewsOf(product.slug)).page.summary.count).toBe(0);
  });
});
