import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * Migration 0054 on a database whose reviews were written under 0050 alone: every review and
 * photo stays as it was, a product's rating counts the reviews already published, and from then
 * on the triggers keep it exact through publishing, rejecting, re-rating and deleting.
 */

// A second, empty database of this file's own (the main one already has every migration).
const db = () => env.REPLICA_DB;
const OLD = (name: string) => name < "0054";

let product: number;
let reviewsBefore: unknown[];

beforeAll(async () => {
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => OLD(m.name)),
  );
  const category = (await db()
    .prepare("INSERT INTO categories (slug, name_en, name_ar) VALUES ('old-cat', 'Old', 'قديم') RETURNING id")
    .first<number>("id"))!;
  product = (await db()
    .prepare(
      `INSERT INTO products (slug, sku, model, category_id, name_en, name_ar, price, stock, max_per_order)
       VALUES ('old-speaker', 'OLD-1', 'O-1', ?, 'Old speaker', 'سماعة قديمة', 10000, 5, 5) RETURNING id`,
    )
    .bind(category)
    .first<number>("id"))!;
  const users = await Promise.all(
    [1, 2, 3].map(
      async (i) =>
        (await db()
          .prepare("INSERT INTO users (name, email, password_hash) VALUES (?, ?, 'x') RETURNING id")
          .bind(`Old ${i}`, `old-${i}@example.com`)
          .first<number>("id"))!,
    ),
  );
  await db().batch([
    ...(
      [
        [users[0], 5, "published"],
        [users[1], 3, "published"],
        [users[2], 1, "pending"],
      ] as const
    ).map(([user, rating, status]) =>
      db()
        .prepare(
          `INSERT INTO reviews (product_id, user_id, rating, title, body, lang, author_name, status)
           VALUES (?, ?, ?, 'Old', 'Written before 0054', 'en', 'Old', ?)`,
        )
        .bind(product, user, rating, status),
    ),
    db().prepare(
      `INSERT INTO review_photos (review_id, key, content_type, width, height)
         SELECT id, '0123456789abcdef0123456789abcdef.png', 'image/png', 40, 30 FROM reviews WHERE rating = 5`,
    ),
  ]);
  reviewsBefore = (
    await db().prepare("SELECT id, product_id, user_id, rating, title, body, status FROM reviews ORDER BY id").all()
  ).results;
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => !OLD(m.name)),
  );
});

const rating = () =>
  db()
    .prepare("SELECT rating_count, rating_sum FROM products WHERE id = ?")
    .bind(product)
    .first<{ rating_count: number; rating_sum: number }>();

describe("migration 0054", () => {
  it("keeps every review and photo, and counts the reviews already published", async () => {
    const after = (
      await db().prepare("SELECT id, product_id, user_id, rating, title, body, status FROM reviews ORDER BY id").all()
    ).results;
    expect(reviewsBefore).toHaveLength(3);
    expect(after).toEqual(reviewsBefore);
    const photo = await db().prepare("SELECT key, thumb_key, width FROM review_photos").first();
    expect(photo).toEqual({ key: "0123456789abcdef0123456789abcdef.png", thumb_key: null, width: 40 });
    expect(await rating()).toEqual({ rating_count: 2, rating_sum: 8 });
  });

  it("then keeps the rating exact through publish, reject, a new rating and a deletion", async () => {
    await db().prepare("UPDATE reviews SET status = 'published' WHERE status = 'pending'").run();
    expect(await rating()).toEqual({ rating_count: 3, rating_sum: 9 });
    await db().prepare("UPDATE reviews SET status = 'rejected' WHERE rating = 3").run();
    expect(await rating()).toEqual({ rating_count: 2, rating_sum: 6 });
    await db().prepare("UPDATE reviews SET rating = 2 WHERE rating = 5").run();
    expect(await rating()).toEqual({ rating_count: 2, rating_sum: 3 });
    // A rejected review's new rating moves nothing.
    await db().prepare("UPDATE reviews SET rating = 4 WHERE status = 'rejected'").run();
    expect(await rating()).toEqual({ rating_count: 2, rating_sum: 3 });
    // Deleting the account deletes its reviews (a cascade), and the rating follows.
    await db().prepare("DELETE FROM users WHERE email = 'old-1@example.com'").run();
    expect(await rating()).toEqual({ rating_count: 1, rating_sum: 1 });
  });
});
