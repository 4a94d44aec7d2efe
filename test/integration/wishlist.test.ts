import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  MAX_WISHLIST,
  WISHLIST_FACTS_PATH,
  WISHLIST_PATH,
  WISHLIST_SHARED_PATH,
  wishlistChanges,
} from "../../contract/wishlist";
import { awayFromMinuteEdge, call, COUNTING_TIMEOUT, register, SLOW_CRYPTO_TIMEOUT } from "../support/accounts";
import { seedCatalogue } from "../support/catalogue";

/**
 * The wishlist kept with the account (contract/wishlist.ts): saved with the price and stock of the
 * moment, merged with a browser's list on sign-in, capped, shared read-only by a link that a new
 * one replaces, and never another's.
 */

let slugs: string[] = [];

beforeAll(async () => {
  await seedCatalogue(env.DB);
  const { results } = await env.DB.prepare(
    "SELECT slug FROM products WHERE active = 1 AND stock > 0 AND variant_count = 1 ORDER BY id LIMIT 6",
  ).all<{ slug: string }>();
  slugs = results.map((r) => r.slug);
});

const add = (token: string, slug: string, variant_id?: number) =>
  call("POST", `${WISHLIST_PATH}/add`, { slug, variant_id }, { token });
const list = async (token: string) => (await call("GET", WISHLIST_PATH, undefined, { token })).body.data;

describe("the wishlist kept with the account", { timeout: SLOW_CRYPTO_TIMEOUT }, () => {
  it("saves products with their price and stock of the moment, newest first, and removes them", async () => {
    const user = await register();
    expect(await list(user.token)).toEqual({ items: [], shared: false });
    const [a, b] = slugs;
    expect((await add(user.token, a)).status).toBe(200);
    const second = await add(user.token, b);
    expect(second.status).toBe(200);
    const items = second.body.data.items;
    expect(items.map((i: { slug: string }) => i.slug)).toEqual([b, a]);
    const row = await env.DB.prepare("SELECT price, stock FROM products WHERE slug = ?")
      .bind(b)
      .first<{ price: number; stock: number }>();
    expect(items[0]).toMatchObject({
      slug: b,
      variant_id: null,
      price: row?.price,
      saved_price: row?.price,
      saved_in_stock: true,
      in_stock: true,
      available: true,
    });
    expect(items[0].names.en).toBeTruthy();
    expect(items[0].names.ar).toMatch(/[\u0600-\u06ff]/);
    // Saving again changes nothing.
    expect((await add(user.token, a)).body.data.items).toHaveLength(2);
    const removed = await call("POST", `${WISHLIST_PATH}/remove`, { slug: a }, { token: user.token });
    expect(removed.status).toBe(200);
    expect(removed.body.data.items.map((i: { slug: string }) => i.slug)).toEqual([b]);
  });

  it("says what changed since saving: a lower price, sold out, back in stock, no longer sold", async () => {
    const user = await register();
    const [, , c, d, e] = slugs;
    for (const slug of [c, d, e]) await add(user.token, slug);
    const before = await env.DB.prepare("SELECT price FROM products WHERE slug = ?").bind(c).first<{ price: number }>();
    const lower = Math.floor((before?.price ?? 0) * 0.8);
    await env.DB.batch([
      env.DB.prepare("UPDATE products SET price = ? WHERE slug = ?").bind(lower, c),
      env.DB.prepare("UPDATE products SET stock = 0 WHERE slug = ?").bind(d),
      env.DB.prepare("UPDATE products SET active = 0 WHERE slug = ?").bind(e),
    ]);
    try {
      const items = (await list(user.token)).items as {
        slug: string;
        price: number;
        saved_price: number;
        in_stock: boolean;
        saved_in_stock: boolean;
        available: boolean;
      }[];
      const of = (slug: string) => items.find((i) => i.slug === slug)!;
      const changesOf = (slug: string) =>
        wishlistChanges({ price: of(slug).saved_price, in_stock: of(slug).saved_in_stock }, of(slug));
      expect(changesOf(c)).toEqual([{ kind: "price_dropped", from: before?.price, to: lower }]);
      expect(changesOf(d)).toEqual([{ kind: "sold_out" }]);
      expect(changesOf(e)).toEqual([{ kind: "gone" }]);
      // A guest's list reads the same facts by slug.
      const facts = await call("POST", WISHLIST_FACTS_PATH, { items: [{ slug: c }, { slug: "no-such-product" }] });
      expect(facts.status).toBe(200);
      expect(facts.body.data).toHaveLength(1);
      expect(facts.body.data[0]).toMatchObject({ slug: c, price: lower, available: true });
      // Restocked: back in stock.
      await env.DB.prepare("UPDATE products SET stock = 5 WHERE slug = ?").bind(d).run();
      await env.DB.prepare("UPDATE wishlist_items SET saved_in_stock = 0 WHERE user_id = ?").bind(user.id).run();
      const again = (await list(user.token)).items.find((i: { slug: string }) => i.slug === d);
      expect(wishlistChanges({ price: again.saved_price, in_stock: again.saved_in_stock }, again)).toEqual([
        { kind: "back_in_stock" },
      ]);
    } finally {
      await env.DB.batch([
        env.DB.prepare("UPDATE products SET price = ? WHERE slug = ?").bind(before?.price, c),
        env.DB.prepare("UPDATE products SET stock = 5 WHERE slug = ?").bind(d),
        env.DB.prepare("UPDATE products SET active = 1 WHERE slug = ?").bind(e),
      ]);
    }
  });

  it("refuses a product that is not on sale, and keeps the variant chosen on the product's page", async () => {
    const user = await register();
    const hidden = await add(user.token, "no-such-product");
    expect(hidden.status).toBe(422);
    expect(hidden.body.errors.slug[0]).toBeTruthy();
    const variant = await env.DB.prepare(
      `SELECT p.slug, v.id, v.price FROM product_variants v JOIN products p ON p.id = v.product_id
       WHERE p.variant_count > 1 AND p.active = 1 AND v.active = 1 ORDER BY v.price DESC LIMIT 1`,
    ).first<{ slug: string; id: number; price: number }>();
    expect(variant, "the demo catalogue has a product of several variants").not.toBeNull();
    const saved = (await add(user.token, variant!.slug, variant!.id)).body.data.items[0];
    expect(saved).toMatchObject({ slug: variant!.slug, variant_id: variant!.id, saved_price: variant!.price });
    expect(saved.variant_title).toBeTruthy();
    // Another product's variant is not this one's: saved as the product.
    const other = await add(user.token, slugs[0], variant!.id);
    expect(other.body.data.items.find((i: { slug: string }) => i.slug === slugs[0]).variant_id).toBeNull();
  });

  it("merges a browser's list: the union, each product keeping the earlier saved time", async () => {
    const user = await register();
    const [a, b, c] = slugs;
    await add(user.token, a);
    const accountTime = (await list(user.token)).items[0].saved_at as string;
    const earlier = new Date(Date.parse(accountTime) - 86_400_000).toISOString();
    const later = new Date(Date.parse(accountTime) - 1_000).toISOString();
    const merged = await call(
      "POST",
      `${WISHLIST_PATH}/merge`,
      {
        items: [
          { slug: a, saved_at: earlier },
          { slug: b, saved_at: later },
          { slug: c, saved_at: "2099-01-01T00:00:00.000Z" },
          { slug: "no-such-product" },
        ],
      },
      { token: user.token },
    );
    expect(merged.status).toBe(200);
    const items = merged.body.data.items as { slug: string; saved_at: string }[];
    expect(items.map((i) => i.slug).sort()).toEqual([a, b, c].sort());
    expect(items.find((i) => i.slug === a)?.saved_at).toBe(earlier);
    expect(items.find((i) => i.slug === b)?.saved_at).toBe(later);
    // A time from the future counts as now.
    expect(Date.parse(items.find((i) => i.slug === c)!.saved_at)).toBeLessThanOrEqual(Date.now());
    // Merging the same again adds nothing, and a later time does not replace the earlier one.
    const again = await call(
      "POST",
      `${WISHLIST_PATH}/merge`,
      { items: [{ slug: a, saved_at: later }] },
      { token: user.token },
    );
    expect(again.body.data.items).toHaveLength(3);
    expect(again.body.data.items.find((i: { slug: string }) => i.slug === a).saved_at).toBe(earlier);
  });

  it(`holds at most ${MAX_WISHLIST} products`, async () => {
    const user = await register();
    // The demo catalogue is smaller than the cap: hidden stand-in products fill the list, as many saves would.
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
       INSERT INTO products (slug, sku, category_id, name_en, name_ar, price, stock, active)
       SELECT 'cap-' || ?1 || '-' || i, 'CAP-' || ?1 || '-' || i, (SELECT MIN(id) FROM categories), 'Filler', 'حشو', 100, 1, 0 FROM n`,
    )
      .bind(user.id, MAX_WISHLIST)
      .run();
    await env.DB.prepare(
      `INSERT INTO wishlist_items (user_id, product_id, saved_at, saved_price, saved_in_stock)
       SELECT ?1, id, '2026-01-01T00:00:00.000Z', 100, 1 FROM products WHERE slug LIKE 'cap-' || ?1 || '-%'`,
    )
      .bind(user.id)
      .run();
    const count = async () =>
      (
        await env.DB.prepare("SELECT COUNT(*) AS n FROM wishlist_items WHERE user_id = ?")
          .bind(user.id)
          .first<{ n: number }>()
      )?.n;
    expect(await count()).toBe(MAX_WISHLIST);
    const full = await add(user.token, slugs[0]);
    expect(full.status).toBe(422);
    expect(full.body.errors.slug[0]).toContain(String(MAX_WISHLIST));
    const merged = await call("POST", `${WISHLIST_PATH}/merge`, { items: [{ slug: slugs[1] }] }, { token: user.token });
    expect(merged.status).toBe(200);
    expect(await count()).toBe(MAX_WISHLIST);
    // Room again after a removal.
    await env.DB.prepare(
      "DELETE FROM wishlist_items WHERE user_id = ?1 AND product_id = (SELECT id FROM products WHERE slug = 'cap-' || ?1 || '-1')",
    )
      .bind(user.id)
      .run();
    expect((await add(user.token, slugs[0])).status).toBe(200);
    expect(await count()).toBe(MAX_WISHLIST);
  });

  it("shares a read-only list by a link that a new one replaces and revoking ends", async () => {
    const user = await register({ name: "Sara Ahmed" });
    const [a, b] = slugs;
    await add(user.token, a);
    await add(user.token, b);
    const first = await call("POST", `${WISHLIST_PATH}/share`, undefined, { token: user.token });
    expect(first.status).toBe(200);
    const token = first.body.data.token as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the token's hash is kept.
    const stored = await env.DB.prepare("SELECT token_hash FROM wishlist_shares WHERE user_id = ?")
      .bind(user.id)
      .first<{ token_hash: string }>();
    expect(stored?.token_hash).not.toContain(token);
    expect((await list(user.token)).shared).toBe(true);

    const shared = await call("GET", `${WISHLIST_SHARED_PATH}/${token}`);
    expect(shared.status).toBe(200);
    expect(shared.body.data.owner).toBe("Sara");
    expect(shared.body.data.items.map((i: { slug: string }) => i.slug).sort()).toEqual([a, b].sort());
    // Nothing personal beyond the first name: no email, phone, user id or saved facts.
    const text = JSON.stringify(shared.body);
    expect(text).not.toContain(user.email);
    expect(text).not.toContain(user.phone);
    expect(text).not.toContain("saved_");
    expect(text).not.toContain("Ahmed");
    // Read-only: the token opens no write.
    for (const path of ["/add", "/remove", "/share/revoke"])
      expect((await call("POST", `${WISHLIST_PATH}${path}`, { slug: a }, { token })).status).toBe(401);

    const second = await call("POST", `${WISHLIST_PATH}/share`, undefined, { token: user.token });
    const newer = second.body.data.token as string;
    expect(newer).not.toBe(token);
    expect((await call("GET", `${WISHLIST_SHARED_PATH}/${token}`)).status).toBe(404);
    expect((await call("GET", `${WISHLIST_SHARED_PATH}/${newer}`)).status).toBe(200);

    const revoked = await call("POST", `${WISHLIST_PATH}/share/revoke`, undefined, { token: user.token });
    expect(revoked.body.data.shared).toBe(false);
    expect((await call("GET", `${WISHLIST_SHARED_PATH}/${newer}`)).status).toBe(404);
    expect((await call("GET", `${WISHLIST_SHARED_PATH}/not-a-token`)).status).toBe(404);
  });

  it("is each account's own: another's list is unreachable, and every call needs a sign-in", async () => {
    const [owner, other] = await Promise.all([register(), register()]);
    await add(owner.token, slugs[0]);
    expect((await list(other.token)).items).toEqual([]);
    // Removing by slug touches only the caller's own list.
    await call("POST", `${WISHLIST_PATH}/remove`, { slug: slugs[0] }, { token: other.token });
    expect((await list(owner.token)).items).toHaveLength(1);
    // Claiming the owner's id with another's token is refused.
    const claimed = await call("GET", WISHLIST_PATH, undefined, {
      token: other.token,
      headers: { id: String(owner.id) },
    });
    expect(claimed.status).toBe(401);
    expect((await call("GET", WISHLIST_PATH)).status).toBe(401);
    for (const path of ["/add", "/remove", "/merge", "/share", "/share/revoke"])
      expect((await call("POST", `${WISHLIST_PATH}${path}`, { slug: slugs[0] })).status, path).toBe(401);
  });

  it("answers a bad input with 422 and field errors in the caller's language, writing nothing", async () => {
    const user = await register();
    const opts = { token: user.token, lang: "ar" as const };
    for (const [path, body] of [
      ["/add", { slug: "<b>" }],
      ["/add", { slug: slugs[0], variant_id: -1 }],
      ["/add", {}],
      ["/remove", { slug: 5 }],
      ["/merge", { items: "all" }],
      ["/merge", { items: [{ slug: slugs[0], saved_at: "yesterday" }] }],
      ["/merge", { items: Array.from({ length: MAX_WISHLIST + 1 }, () => ({ slug: slugs[0] })) }],
    ] as const) {
      const res = await call("POST", `${WISHLIST_PATH}${path}`, body, opts);
      expect(res.status, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(422);
      expect(Object.values(res.body.errors ?? {}).flat()[0]).toMatch(/[\u0600-\u06ff]/);
    }
    const facts = await call("POST", WISHLIST_FACTS_PATH, { items: [{ slug: "Bad Slug" }] }, { lang: "ar" });
    expect(facts.status).toBe(422);
    expect((await list(user.token)).items).toEqual([]);
  });

  it(
    "counts writes per account and refuses past 60 a minute with 429",
    { timeout: COUNTING_TIMEOUT + SLOW_CRYPTO_TIMEOUT },
    async () => {
      const user = await register();
      await awayFromMinuteEdge(20_000);
      const answers: number[] = [];
      for (let i = 0; i < 60; i++) {
        const res = await call(
          "POST",
          `${WISHLIST_PATH}/${i % 2 ? "remove" : "add"}`,
          { slug: slugs[0] },
          {
            token: user.token,
          },
        );
        answers.push(res.status);
      }
      expect(answers.every((s) => s === 200)).toBe(true);
      const over = await call("POST", `${WISHLIST_PATH}/add`, { slug: slugs[0] }, { token: user.token, lang: "ar" });
      expect(over.status).toBe(429);
      expect(over.headers.get("retry-after")).toBe("60");
      expect(over.body.message).toMatch(/[\u0600-\u06ff]/);
      // Reads are not counted, and another account is not affected.
      expect((await call("GET", WISHLIST_PATH, undefined, { token: user.token })).status).toBe(200);
      const other = await register();
      expect((await add(other.token, slugs[0])).status).toBe(200);
    },
  );
});
