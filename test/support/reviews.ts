// Fixtures for the review tests: delivered orders through the real API (checkout, the sandbox's
// card page, the console's fulfilment steps), review writes as the storefront's form sends them
// (multipart, with photos), and images small enough to build by hand but real to the sniffer.
import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { ReviewsPage } from "../../contract/reviews";
import type { ReviewsSettings } from "../../contract/settings";
import { address, call, createProduct, freshIp, type Answer, type Shopper, type TestProduct } from "./commerce";
import type { Staff } from "./console";
import { payOrder } from "./orders";

/** Walks a paid order through the console to delivered. */
export async function deliver(manager: Staff, number: string): Promise<void> {
  expect((await call(manager, "POST", `/admin/orders/${number}/process`)).status).toBe(200);
  const shipped = await call(manager, "POST", `/admin/orders/${number}/ship`, {
    carrier: "SMSA",
    tracking_number: "SM123456",
  });
  expect(shipped.status).toBe(200);
  expect((await call(manager, "POST", `/admin/orders/${number}/deliver`)).status).toBe(200);
}

/** An order of one of each product, placed and paid by `shopper`; delivered unless `delivered` is false. */
export async function orderOf(
  shopper: Shopper,
  manager: Staff,
  products: TestProduct[],
  opts: { delivered?: boolean; phone?: string } = {},
): Promise<string> {
  for (const p of products)
    expect((await call(shopper, "POST", "/cart/add-product", { product_id: p.id, quantity: 1 })).status).toBe(200);
  const placed = await call(shopper, "POST", "/checkout", {
    idempotency_key: crypto.randomUUID(),
    email: shopper.email,
    address: { ...address, ...(opts.phone ? { phone: opts.phone } : {}) },
    shipping_method: "standard",
    payment_method: "card",
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const number = placed.body.data.number as string;
  await payOrder(shopper, number);
  if (opts.delivered !== false) await deliver(manager, number);
  return number;
}

/** A product bought and delivered to `shopper`. */
export async function boughtProduct(shopper: Shopper, manager: Staff, name?: string): Promise<TestProduct> {
  const product = await createProduct({ stock: 50, price: 10000, name });
  await orderOf(shopper, manager, [product]);
  return product;
}

/** `n` products bought in one order and delivered to `shopper`. */
export async function boughtProducts(shopper: Shopper, manager: Staff, n: number): Promise<TestProduct[]> {
  const products = await Promise.all(Array.from({ length: n }, () => createProduct({ stock: 50, price: 10000 })));
  await orderOf(shopper, manager, products);
  return products;
}

let imageCounter = 0;

/**
 * A PNG the sniffer reads (signature, IHDR with its size) and R2 stores: not a picture anyone
 * could decode, but each one's bytes differ, so each has its own key.
 */
export function png(width: number, height: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(64);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(16, width);
  new DataView(bytes.buffer).setUint32(20, height);
  bytes.set([8, 6, 0, 0, 0], 24);
  new DataView(bytes.buffer).setUint32(40, ++imageCounter);
  new DataView(bytes.buffer).setFloat64(48, Math.random());
  return bytes;
}

export interface ReviewForm {
  product: string;
  rating?: string | number;
  title?: string;
  body?: string;
  lang?: string;
  author_name?: string;
  photos?: { bytes: Uint8Array<ArrayBuffer>; name?: string; type?: string }[];
  thumbs?: { bytes: Uint8Array<ArrayBuffer>; name?: string; type?: string }[];
  keep_photos?: string[];
}

/** POST /client/reviews as the storefront's form sends it: multipart, photos and thumbs as files. */
// `any`, as commerce.ts's `call`: tests read answer fields loosely and assert on them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function postReview(shopper: Pick<Shopper, "headers"> | null, review: ReviewForm): Promise<Answer<any>> {
  const form = new FormData();
  for (const field of ["product", "rating", "title", "body", "lang", "author_name"] as const) {
    const value = review[field];
    if (value !== undefined) form.set(field, String(value));
  }
  for (const [i, p] of (review.photos ?? []).entries())
    form.append("photos", new File([p.bytes], p.name ?? `photo-${i}.png`, { type: p.type ?? "image/png" }));
  for (const [i, p] of (review.thumbs ?? []).entries())
    form.append("thumbs", new File([p.bytes], p.name ?? `thumb-${i}.png`, { type: p.type ?? "image/png" }));
  if (review.keep_photos) {
    if (review.keep_photos.length === 0) form.append("keep_photos", "");
    for (const key of review.keep_photos) form.append("keep_photos", key);
  }
  const res = await SELF.fetch("http://shop.test/backend/client/reviews", {
    method: "POST",
    headers: { accept: "application/json", "cf-connecting-ip": freshIp(), ...(shopper?.headers ?? {}) },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

/** A review of `product` that passes every rule, with the fields given. */
export const goodReview = (product: TestProduct, extra: Partial<ReviewForm> = {}): ReviewForm => ({
  product: product.slug,
  rating: 4,
  title: "Does the job",
  body: "Charges fast and stays cool.",
  ...extra,
});

export const DEFAULT_REVIEW_SETTINGS: ReviewsSettings = {
  publish: "clean",
  screen_links: true,
  screen_contacts: true,
  blocked_words: [],
  invitation_days: 7,
};

/** Saves the store's `reviews` settings as an owner does in the console. */
export async function setReviewSettings(owner: Staff, settings: Partial<ReviewsSettings>): Promise<void> {
  const saved = await call(owner, "PUT", "/admin/settings/reviews", { ...DEFAULT_REVIEW_SETTINGS, ...settings });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

/** GET /catalogue/products/{slug}/reviews as a visitor reads it (the whole body is the page). */
export async function reviewsOf(
  slug: string,
  query = "",
  lang: "en" | "ar" = "en",
): Promise<{ status: number; page: ReviewsPage }> {
  const res = await SELF.fetch(`http://shop.test/backend/catalogue/products/${slug}/reviews${query}`, {
    headers: { accept: "application/json", "content-language": lang, "cf-connecting-ip": freshIp() },
  });
  return { status: res.status, page: (await res.json()) as ReviewsPage };
}

/** The product's kept rating columns. */
export async function ratingColumns(productId: number): Promise<{ rating_count: number; rating_sum: number }> {
  return (await env.DB.prepare("SELECT rating_count, rating_sum FROM products WHERE id = ?")
    .bind(productId)
    .first<{ rating_count: number; rating_sum: number }>())!;
}

export interface SentMessage {
  purpose: string;
  lang: string;
  channel: string;
  subject: string;
  body: string;
  html: string | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What the development outbox holds for `to` with `purpose`, once at least `atLeast` arrived (the
 * queue delivers after the answer) and nothing more came for a moment; after 10 s, what there is.
 */
export async function sentTo(to: string, purpose: string, atLeast = 1): Promise<SentMessage[]> {
  const read = async () =>
    (
      await env.DB.prepare(
        "SELECT purpose, lang, channel, subject, body, html FROM dev_outbox WHERE recipient = ? AND purpose = ? ORDER BY id",
      )
        .bind(to, purpose)
        .all<SentMessage>()
    ).results;
  const deadline = Date.now() + 10_000;
  let rows = await read();
  while (rows.length < atLeast && Date.now() < deadline) {
    await sleep(100);
    rows = await read();
  }
  await sleep(300);
  return read();
}
