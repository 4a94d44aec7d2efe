import { describe, expect, it } from "vitest";
import { productStructuredData } from "../../app/lib/product-structured-data.ts";
import { fitWithin, PHOTO_DISPLAY_MAX, PHOTO_THUMB_MAX } from "../../app/lib/review-photos.ts";
import {
  formatAverage,
  hasRating,
  reviewsForSchema,
  starPercent,
  type ReviewForSchema,
} from "../../app/lib/reviews.ts";
import { ratingStructuredData } from "../../app/lib/reviews.server.ts";
import { reviewFormData } from "../../app/lib/api/reviews.ts";

/**
 * Reviews' pure rules: how stars are drawn from an average, how a rating reads, how a photo is
 * sized before upload, what the review form sends, and the product page's structured data with and
 * without published reviews (Google's review snippets: only real, published reviews, on a 1 to 5
 * scale, and nothing at all for a product without them).
 */

describe("stars drawn from an average", () => {
  it("fill to the nearest half star", () => {
    expect(starPercent(5)).toBe(100);
    expect(starPercent(4.5)).toBe(90);
    expect(starPercent(4.3)).toBe(90);
    expect(starPercent(4.2)).toBe(80);
    expect(starPercent(4.24)).toBe(80);
    expect(starPercent(4.25)).toBe(90);
    expect(starPercent(1)).toBe(20);
    expect(starPercent(1.2)).toBe(20);
    expect(starPercent(0.2)).toBe(0);
  });

  it("never overflow the row or go below empty, whatever the data says", () => {
    expect(starPercent(7)).toBe(100);
    expect(starPercent(-1)).toBe(0);
    expect(starPercent(0)).toBe(0);
    expect(starPercent(Number.NaN)).toBe(0);
  });

  it("an average reads with one decimal, the same digits in both languages", () => {
    expect(formatAverage(4)).toBe("4.0");
    expect(formatAverage(4.26)).toBe("4.3");
    expect(formatAverage(4.25)).toBe("4.3");
    expect(formatAverage(4.04)).toBe("4.0");
    expect(formatAverage(5.7)).toBe("5.0");
    expect(formatAverage(Number.NaN)).toBe("0.0");
  });

  it("a product shows a rating only with at least one published review", () => {
    expect(hasRating({ count: 0, average: 0 })).toBe(false);
    expect(hasRating(null)).toBe(false);
    expect(hasRating(undefined)).toBe(false);
    expect(hasRating({ count: 1, average: 5 })).toBe(true);
  });
});

describe("a review photo's size before upload", () => {
  it("a landscape photo from a phone fits 1600 px wide for display and 320 px for the thumbnail", () => {
    expect(fitWithin(4032, 3024, PHOTO_DISPLAY_MAX)).toEqual({ width: 1600, height: 1200 });
    expect(fitWithin(4032, 3024, PHOTO_THUMB_MAX)).toEqual({ width: 320, height: 240 });
  });

  it("a portrait photo fits by its height", () => {
    expect(fitWithin(3024, 4032, PHOTO_DISPLAY_MAX)).toEqual({ width: 1200, height: 1600 });
    expect(fitWithin(1080, 1920, PHOTO_THUMB_MAX)).toEqual({ width: 180, height: 320 });
  });

  it("a square one stays square; a very long one keeps at least a pixel across", () => {
    expect(fitWithin(2000, 2000, PHOTO_THUMB_MAX)).toEqual({ width: 320, height: 320 });
    expect(fitWithin(10_000, 3, PHOTO_THUMB_MAX)).toEqual({ width: 320, height: 1 });
  });

  it("a photo already small enough is never enlarged", () => {
    expect(fitWithin(800, 600, PHOTO_DISPLAY_MAX)).toEqual({ width: 800, height: 600 });
    expect(fitWithin(320, 200, PHOTO_THUMB_MAX)).toEqual({ width: 320, height: 200 });
    expect(fitWithin(0, 0, PHOTO_THUMB_MAX)).toEqual({ width: 1, height: 1 });
  });

  it("the proportions survive the rounding", () => {
    const { width, height } = fitWithin(3000, 1999, PHOTO_DISPLAY_MAX);
    expect(width).toBe(1600);
    expect(Math.abs(width / height - 3000 / 1999)).toBeLessThan(0.01);
  });
});

describe("what the review form sends", () => {
  it("each photo's display copy under photos and its thumbnail under thumbs, in the same order", async () => {
    const blob = (text: string) => new Blob([text], { type: "image/webp" });
    const form = reviewFormData({
      product: "galaxy-s25",
      rating: 4,
      title: "Great",
      body: "Fast and light",
      author_name: "Sara",
      photos: [
        { display: blob("d1"), thumb: blob("t1"), name: "photo-1.webp" },
        { display: blob("d2"), thumb: blob("t2"), name: "photo-2.webp" },
      ],
    });
    expect(form.get("product")).toBe("galaxy-s25");
    expect(form.get("rating")).toBe("4");
    expect(form.get("author_name")).toBe("Sara");
    expect(form.has("lang")).toBe(false);
    const text = (entries: FormDataEntryValue[]) => Promise.all(entries.map((e) => (e as Blob).text()));
    expect(await text(form.getAll("photos"))).toEqual(["d1", "d2"]);
    expect(await text(form.getAll("thumbs"))).toEqual(["t1", "t2"]);
  });
});

const product = {
  name: "Galaxy S25",
  sku: "SM-S931",
  model: "S931B",
  currency: "SAR",
  price: 349_900,
  in_stock: true,
  brand: { id: 1, slug: "samsung", name: "Samsung" },
  category: { id: 2, slug: "phones", name: "Phones" },
  description: "A phone.",
  specifications: [],
};
const at = {
  url: "https://shop.example/en/product-details/galaxy-s25",
  images: [],
  abs: (s: string) => s,
  description: "",
};

const reviews: ReviewForSchema[] = [
  {
    rating: 5,
    title: "Excellent",
    body: "Battery lasts two days.",
    author_name: "Sara",
    created_at: "2026-03-01T22:30:00Z",
  },
  { rating: 4, title: "", body: "Good camera.", author_name: "نورة", created_at: "2026-03-02T08:00:00Z" },
  { rating: 3, title: "OK", body: "Fine.", author_name: "Ali", created_at: "2026-03-03T08:00:00Z" },
  { rating: 2, title: "Meh", body: "Not for me.", author_name: "Omar", created_at: "2026-03-04T08:00:00Z" },
];

describe("the product page's structured data and its reviews", () => {
  it("a product without published reviews carries no rating and no review at all", () => {
    for (const rating of [undefined, null, { count: 0, average: 0 }]) {
      const data = productStructuredData(product, at, ratingStructuredData(rating, reviews));
      expect(data).not.toHaveProperty("aggregateRating");
      expect(data).not.toHaveProperty("review");
    }
  });

  it("a reviewed product carries AggregateRating with its average, count and the 1 to 5 scale", () => {
    const data = productStructuredData(product, at, ratingStructuredData({ count: 12, average: 4.26 }, []));
    expect(data.aggregateRating).toEqual({
      "@type": "AggregateRating",
      ratingValue: "4.3",
      reviewCount: 12,
      bestRating: 5,
      worstRating: 1,
    });
    expect(data).not.toHaveProperty("review");
  });

  it("names a few published reviews as Review items: author, rating, text and the shop's day", () => {
    const data = productStructuredData(product, at, ratingStructuredData({ count: 4, average: 3.5 }, reviews)) as {
      review: Record<string, unknown>[];
    };
    expect(data.review).toHaveLength(3);
    expect(data.review[0]).toEqual({
      "@type": "Review",
      author: { "@type": "Person", name: "Sara" },
      // 22:30 UTC is the next morning in Riyadh: the day the shop printed beside the review.
      datePublished: "2026-03-02",
      name: "Excellent",
      reviewBody: "Battery lasts two days.",
      reviewRating: { "@type": "Rating", ratingValue: 5, bestRating: 5, worstRating: 1 },
    });
    // A review without a title has no name.
    expect(data.review[1]).not.toHaveProperty("name");
    expect((data.review[1].author as { name: string }).name).toBe("نورة");
  });

  it("a product of several variants carries the rating on its ProductGroup", () => {
    const options = [
      {
        code: "colour",
        name: "Colour",
        kind: "swatch" as const,
        values: [
          { code: "black", name: "Black", swatch: "#000" },
          { code: "blue", name: "Blue", swatch: "#00f" },
        ],
      },
    ];
    const variant = (code: string, id: number) => ({
      id,
      sku: `S-${code}`,
      barcode: null,
      price: 1000,
      compare_at_price: null,
      stock: 3,
      in_stock: true,
      max_per_order: 5,
      images: [],
      options: { colour: code },
      title: code,
    });
    const data = productStructuredData(
      { ...product, options, variants: [variant("black", 1), variant("blue", 2)] },
      at,
      ratingStructuredData({ count: 2, average: 5 }, reviews.slice(0, 1)),
    );
    expect(data["@type"]).toBe("ProductGroup");
    expect((data.aggregateRating as { reviewCount: number }).reviewCount).toBe(2);
    expect(data.review).toHaveLength(1);
  });

  it("keeps a long review's text to a bounded length for the page's data", () => {
    const long = { ...reviews[0], body: "x".repeat(5000) };
    const [trimmed] = reviewsForSchema([long]);
    expect(trimmed.body.length).toBe(1000);
    expect(trimmed.body.endsWith("…")).toBe(true);
    expect(reviewsForSchema(reviews)).toHaveLength(3);
  });
});
