import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { ProductFilters } from "../../worker/backend/services/catalogue/list-filters";
import { listProducts } from "../../worker/backend/services/catalogue/search";
import {
  forgetKeptSearches,
  keepLater,
  keepSearch,
  MAX_KEPT_SEARCHES,
} from "../../worker/backend/services/catalogue/search-kept";
import {
  COMMON_PHRASES,
  KEEP_MIN_MATCHES,
  keepStatements,
  MATCH_COUNT,
  PRICE_BANDS,
  SEARCH_STATE,
} from "../../worker/backend/services/catalogue/search-ranking";
import {
  expectSameFacets,
  facetsOf,
  FILTERS,
  page,
  queriesOf,
  reference,
  referenceFacets,
  seedSearchCatalogue,
  WORDS,
  type Filters,
} from "../support/search-reference";
import { counted } from "../support/counted-db";

/**
 * Kept searches (migration 0022, services/catalogue/search-kept.ts): a query's ranked matches and facet
 * cells, kept so that a search for a word matching a sixth of a large catalogue reads a page as an
 * index range. What a kept search answers must be what ranking afresh answers, through sales and
 * price changes that move products in place, and a catalogue edit must stop the copy being read.
 */

beforeAll(seedSearchCatalogue);

/** Whether the query's kept copy is there and of the current version: null when there is none. */
async function keptState(q: string): Promise<boolean | null> {
  const { names, details } = await queriesOf(q);
  const row = (await env.DB.prepare(SEARCH_STATE)
    .bind(names, details)
    .first<{ version: number; kept: number | null }>())!;
  return row.kept === null ? null : row.kept === row.version;
}

/** Every filter of the order test, and price bounds that are a band's and that are no band's. */
const KEPT_FILTERS: Filters[] = [
  ...FILTERS,
  { brand: "apple" },
  { min_price: PRICE_BANDS[1].min, max_price: PRICE_BANDS[1].max! - 1 },
  { category: "phones", min_price: 120_000, max_price: 450_000 },
];

/** Pages, totals and facets of every word and filter against the reference; answers how many pages were compared. */
async function compareAll(what: string): Promise<number> {
  let compared = 0;
  for (const [q, lang] of WORDS)
    for (const f of KEPT_FILTERS) {
      const all = await reference(q, lang, "relevance", f);
      for (const [n, perPage] of [
        [1, 12],
        [3, 12],
        [2, 48],
        [Math.ceil(all.length / 12) + 1, 12],
      ]) {
        const got = await page(q, lang, "relevance", f, n, perPage);
        const label = `${what}: ${q} ${JSON.stringify(f)} page ${n}/${perPage}`;
        expect(got.total, label).toBe(all.length);
        expect(got.slugs, label).toEqual(all.slice((n - 1) * perPage, n * perPage));
        compared++;
      }
      expectSameFacets(await facetsOf(q, lang, f), await referenceFacets(q, f), `${what}: ${q} ${JSON.stringify(f)}`);
    }
  return compared;
}

describe("kept searches", () => {
  beforeAll(async () => {
    forgetKeptSearches();
    for (const [q] of WORDS) await keepSearch(env.DB, await queriesOf(q));
  });

  it("answer every filter, page and facet as ranking afresh does, and the answer comes from the copy", async () => {
    for (const [q] of WORDS) expect(await keptState(q), q).toBe(true);
    expect(await compareAll("kept")).toBe(WORDS.length * KEPT_FILTERS.length * 4);
    // The answers above were read from the copies: emptied, a copy answers nothing.
    const { names, details } = await queriesOf("camera");
    const kept = "(SELECT id FROM search_kept WHERE names = ?1 AND details = ?2)";
    await env.DB.batch([
      env.DB.prepare(`DELETE FROM search_kept_rows WHERE kept_id = ${kept}`).bind(names, details),
      env.DB.prepare(`DELETE FROM search_kept_cells WHERE kept_id = ${kept}`).bind(names, details),
    ]);
    expect(await page("camera", "en", "relevance", {}, 1, 12)).toEqual({ slugs: [], total: 0 });
    // Other sorts never read a copy.
    expect((await page("camera", "en", "newest", {}, 1, 12)).total).toBeGreaterThan(0);
    await keepSearch(env.DB, { names, details });
    expect((await page("camera", "en", "relevance", {}, 1, 12)).total).toBeGreaterThan(0);
  }, 180_000);

  it("the catalogue's common phrases are the words side by side in many shown products' names, and one kept answers as afresh", async () => {
    const least = 40;
    const { results: products } = await env.DB.prepare(
      "SELECT id, name_en, name_ar FROM products WHERE active = 1",
    ).all<{ id: number; name_en: string; name_ar: string }>();
    const holders = new Map<string, Set<number>>();
    for (const p of products)
      for (const name of [p.name_en, p.name_ar]) {
        const words = name.toLowerCase().split(" ").filter(Boolean);
        for (let i = 1; i < words.length; i++) {
          const phrase = `${words[i - 1]} ${words[i]}`;
          holders.set(phrase, (holders.get(phrase) ?? new Set()).add(p.id));
        }
      }
    const expected = [...holders]
      .map(([phrase, ids]) => ({ phrase, n: ids.size }))
      .filter((p) => p.n >= least)
      .sort((a, b) => b.n - a.n || (a.phrase < b.phrase ? -1 : a.phrase > b.phrase ? 1 : 0));
    const { results: phrases } = await env.DB.prepare(COMMON_PHRASES).bind(least).all<{ phrase: string; n: number }>();
    expect(expected.length).toBeGreaterThan(10);
    expect(phrases).toEqual(expected);
    expect(phrases.map((p) => p.phrase)).toEqual(expect.arrayContaining(["fast charger", "شاحن سريع"]));
    // Kept as the seed keeps it, a phrase answers what ranking it afresh answers.
    await keepSearch(env.DB, await queriesOf("شاحن سريع"));
    expect(await keptState("شاحن سريع")).toBe(true);
    for (const f of [{}, { in_stock: true }] as Filters[]) {
      const all = await reference("شاحن سريع", "ar", "relevance", f);
      if (!f.in_stock) expect(all.length).toBeGreaterThanOrEqual(holders.get("شاحن سريع")!.size);
      for (const n of [1, 2]) {
        const got = await page("شاحن سريع", "ar", "relevance", f, n, 12);
        expect(got.total).toBe(all.length);
        expect(got.slugs).toEqual(all.slice((n - 1) * 12, n * 12));
      }
      expectSameFacets(
        await facetsOf("شاحن سريع", "ar", f),
        await referenceFacets("شاحن سريع", f),
        `phrase ${JSON.stringify(f)}`,
      );
    }
  }, 120_000);

  it("follow sales, restocks, price changes, featuring and hiding in place, without going stale", async () => {
    const version = () => env.DB.prepare("SELECT value FROM versions WHERE name = 'search'").first<number>("value");
    const before = await version();
    // Matches of every word sold out, restocked, moved across price bands, featured or not and
    // hidden, as checkout, a restock and the console would.
    const { results } = await env.DB.prepare(
      `SELECT id, stock, price FROM products WHERE active = 1 AND id IN (
         SELECT rowid FROM product_search WHERE product_search MATCH 'samsung OR camera OR phone OR جراب')
       ORDER BY id`,
    ).all<{ id: number; stock: number; price: number }>();
    const inStock = results.filter((p) => p.stock > 0);
    const soldOut = results.filter((p) => p.stock === 0);
    expect(inStock.length).toBeGreaterThan(60);
    expect(soldOut.length).toBeGreaterThan(3);
    const writes = [
      ...inStock.filter((_, i) => i % 4 === 0).map((p) => `UPDATE products SET stock = 0 WHERE id = ${p.id}`),
      ...soldOut.filter((_, i) => i % 2 === 0).map((p) => `UPDATE products SET stock = 9 WHERE id = ${p.id}`),
      ...inStock
        .filter((_, i) => i % 5 === 1)
        .map((p) => `UPDATE products SET price = ${p.price * 3} WHERE id = ${p.id}`),
      // A sale that leaves it in stock, and a price edit within its band: nothing to move.
      ...inStock
        .filter((_, i) => i % 7 === 2)
        .map((p) => `UPDATE products SET stock = ${p.stock + 1} WHERE id = ${p.id}`),
      ...results
        .filter((_, i) => i % 6 === 3)
        .map((p) => `UPDATE products SET is_featured = 1 - is_featured WHERE id = ${p.id}`),
      ...results.filter((_, i) => i % 11 === 5).map((p) => `UPDATE products SET active = 0 WHERE id = ${p.id}`),
    ];
    await env.DB.batch(writes.map((sql) => env.DB.prepare(sql)));
    expect(await version()).toBe(before);
    for (const [q] of WORDS) expect(await keptState(q), q).toBe(true);
    expect(await compareAll("after sales, featuring and hiding")).toBeGreaterThan(0);
  }, 180_000);

  it("stop being read after an edit to what a search finds, and are kept again after the next search", async () => {
    // A name (the index changes with it), a category (the index holds its name), a hidden product
    // shown again (its place in each copy is unknown).
    const edits = [
      "UPDATE products SET name_en = name_en || ' camera' WHERE id = (SELECT MIN(id) FROM products WHERE active = 1 AND name_en NOT LIKE '%camera%')",
      "UPDATE products SET category_id = (SELECT MAX(id) FROM categories) WHERE id = (SELECT MIN(id) FROM products WHERE active = 1 AND id IN (SELECT rowid FROM product_search WHERE product_search MATCH 'samsung'))",
      "UPDATE products SET active = 1 WHERE id = (SELECT MIN(id) FROM products WHERE active = 0 AND id IN (SELECT rowid FROM product_search WHERE product_search MATCH 'phone OR camera'))",
    ];
    for (const edit of edits) {
      await env.DB.prepare(edit).run();
      for (const [q] of WORDS) expect(await keptState(q), `${q} after ${edit}`).toBe(false);
      // Stale copies are not read: ranking afresh answers, and agrees with the reference.
      expect(await compareAll(`after ${edit}`)).toBeGreaterThan(0);
      // A search that finds its copy stale keeps it again after its answer (one keep at a time per
      // isolate, and an isolate asks again 10 s after it found none): search until all are kept.
      await expect
        .poll(
          async () => {
            for (const [q, lang] of WORDS) await page(q, lang, "relevance", {}, 1, 12);
            return Promise.all(WORDS.map(([q]) => keptState(q)));
          },
          { timeout: 40_000, interval: 1_000 },
        )
        .toEqual(WORDS.map(() => true));
    }
    // Kept again, they answer as ranking afresh does.
    forgetKeptSearches();
    expect(await compareAll("kept again")).toBeGreaterThan(0);
  }, 300_000);

  it("a search is kept after its answer only when it matches many products and there is room, or its copy went stale", async () => {
    const match = await queriesOf("lenovo");
    const tasks: Promise<unknown>[] = [];
    const defer = (task: Promise<unknown>) => void tasks.push(task);
    const keep = async (stale: boolean, minMatches: number, maxKept = MAX_KEPT_SEARCHES) => {
      keepLater(env.DB, match, stale, defer, { minMatches, maxKept });
      await Promise.all(tasks.splice(0));
    };
    const { n } = (await env.DB.prepare(MATCH_COUNT).bind(match.names, match.details).first<{ n: number }>())!;
    expect(n).toBeGreaterThan(10);
    const copies = (await env.DB.prepare("SELECT COUNT(*) AS n FROM search_kept WHERE version > 0").first<number>(
      "n",
    ))!;
    expect(copies).toBeGreaterThan(0);
    await keep(false, n + 1);
    expect(await keptState("lenovo"), "too few matches").toBeNull();
    await keep(false, n, copies);
    expect(await keptState("lenovo"), "no room").toBeNull();
    await keep(false, n);
    expect(await keptState("lenovo")).toBe(true);
    await env.DB.prepare("UPDATE products SET model = 'X' || id WHERE id = (SELECT MIN(id) FROM products)").run();
    expect(await keptState("lenovo")).toBe(false);
    // Stale: kept again in its own place, whatever the threshold and the room.
    await keep(true, Number.MAX_SAFE_INTEGER, 0);
    expect(await keptState("lenovo")).toBe(true);
    // A count the answer made (a search without filters: services/catalogue/list-assembler.ts) is trusted. Too
    // few asks the database nothing; enough keeps without counting again (here a count above the
    // real one, so that only the answer's count can have decided).
    const sony = await queriesOf("sony");
    const real = (await env.DB.prepare(MATCH_COUNT).bind(sony.names, sony.details).first<number>("n"))!;
    expect(await keptState("sony")).toBeNull();
    keepLater(env.DB, sony, false, defer, { matches: real + 1, minMatches: real + 2 });
    expect(tasks, "a known count under the threshold").toHaveLength(0);
    keepLater(env.DB, sony, false, defer, { matches: real + 1, minMatches: real + 1 });
    await Promise.all(tasks.splice(0));
    expect(await keptState("sony"), "a known count at the threshold").toBe(true);
    // One keep at a time per isolate: a second query asked meanwhile is not kept.
    const other = await queriesOf("apple");
    keepLater(env.DB, match, true, defer);
    keepLater(env.DB, other, true, defer);
    expect(tasks).toHaveLength(1);
    await Promise.all(tasks.splice(0));
  });

  it("a shop that holds no current copy ranks afresh without asking for one, and reads one another isolate kept from the next search on", async () => {
    const huawei = await reference("huawei", "en", "relevance", {});
    expect(huawei.length).toBeGreaterThan(12);
    expect(huawei.length).toBeLessThan(KEEP_MIN_MATCHES);
    // No copy is current: a search learns that the shop holds none.
    await env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'search'").run();
    forgetKeptSearches();
    expect((await page("xiaomi", "en", "relevance", {}, 1, 12)).total).toBeGreaterThan(0);
    // Another isolate keeps "huawei" (its batch as written, not through this isolate's keepSearch);
    // the copy is then emptied by hand, so an answer read from it shows.
    const { names, details } = await queriesOf("huawei");
    await env.DB.batch(keepStatements().map((sql) => env.DB.prepare(sql).bind(names, details)));
    expect(await keptState("huawei")).toBe(true);
    const kept = "(SELECT id FROM search_kept WHERE names = ?1 AND details = ?2)";
    await env.DB.batch([
      env.DB.prepare(`DELETE FROM search_kept_rows WHERE kept_id = ${kept}`).bind(names, details),
      env.DB.prepare(`DELETE FROM search_kept_cells WHERE kept_id = ${kept}`).bind(names, details),
    ]);
    // The next search does not ask for it, so ranks afresh (the whole answer), and learns the shop keeps one…
    expect(await page("huawei", "en", "relevance", {}, 1, 12)).toEqual({
      slugs: huawei.slice(0, 12),
      total: huawei.length,
    });
    // …so the one after reads the copy: emptied, it answers nothing.
    expect(await page("huawei", "en", "relevance", {}, 2, 12)).toEqual({ slugs: [], total: 0 });
  });

  it("a search this isolate saw kept reads only its copy, and ranks afresh in a second trip once the copy is stale", async () => {
    for (const [q, lang] of [
      ["camera", "en"],
      ["جراب", "ar"],
    ] as const) {
      await keepSearch(env.DB, await queriesOf(q));
      forgetKeptSearches();
      const all = await reference(q, lang, "relevance", {});
      const search = (n: number): ProductFilters => ({
        q,
        sort: "relevance",
        page: n,
        per_page: 12,
        facets: true,
      });
      const slugs = (listed: { data: { slug: string }[] }) => listed.data.map((p) => p.slug);
      // The clock stands still, so the versions an isolate reads once a second are not read again here.
      vi.useFakeTimers({ toFake: ["Date"] });
      try {
        // Another shopper's search, as the edge serves it: the catalogue version, the synonyms and
        // the taxonomy are read, and the shop is seen to keep searches.
        expect((await SELF.fetch(`https://shop.test/backend/products?q=phone&run=saw-kept-${lang}`)).status).toBe(200);
        // Unknown to this isolate: its copy and, unless that is current, its matches ranked afresh, in one trip.
        const either = counted(env.DB);
        const first = await listProducts(either.db, lang, search(1));
        expect(either.trips()).toBe(1);
        expect(slugs(first)).toEqual(all.slice(0, 12));
        // Seen current: the next page reads the copy alone, without the fresh page (which carries its
        // facets' sums), and agrees with the reference.
        const keptOnly = counted(env.DB);
        const second = await listProducts(keptOnly.db, lang, search(2));
        expect(keptOnly.trips()).toBe(1);
        expect(keptOnly.statements()).toBe(either.statements() - 1);
        expect(slugs(second)).toEqual(all.slice(12, 24));
        expect(second.meta.total).toBe(all.length);
        expect(second.meta.facets).toEqual(first.meta.facets);
        // The index changed since (the copy is stale): a second trip ranks afresh, and the answer is the same.
        await env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'search'").run();
        const stale = counted(env.DB);
        expect(await listProducts(stale.db, lang, search(1))).toEqual(first);
        expect(stale.trips()).toBe(2);
        // Now known to have no current copy: ranked afresh alone (until it is kept again, or for the
        // 10 s an isolate believes a query unkept), in one trip.
        const again = counted(env.DB);
        expect(slugs(await listProducts(again.db, lang, search(2)))).toEqual(all.slice(12, 24));
        expect(again.trips()).toBe(1);
        expect(again.statements()).toBe(either.statements() - 2);
      } finally {
        vi.useRealTimers();
      }
    }
  });
});

describe("the search version (migration 0022's triggers)", () => {
  it("moves with what a search finds a product by, not with what only moves it within the order", async () => {
    const version = async () =>
      (await env.DB.prepare("SELECT value FROM versions WHERE name = 'search'").first<number>("value"))!;
    const id = (await env.DB.prepare("SELECT MIN(id) AS id FROM products WHERE stock > 3").first<number>("id"))!;
    for (const set of [
      "stock = stock - 1",
      "price = price + 1",
      "low_stock_threshold = 3",
      "images = '[]'",
      "is_featured = 1 - is_featured",
      "active = 0",
    ]) {
      const before = await version();
      await env.DB.prepare(`UPDATE products SET ${set} WHERE id = ?`).bind(id).run();
      expect(await version(), set).toBe(before);
    }
    for (const set of [
      "name_en = name_en || '!'",
      "name_ar = name_ar || '!'",
      "description_en = 'x'",
      "description_ar = 'x'",
      "sku = sku || '-2'",
      "model = 'M-2'",
      "category_id = (SELECT MAX(id) FROM categories)",
      "brand_id = NULL",
      "active = 1",
    ]) {
      const before = await version();
      await env.DB.prepare(`UPDATE products SET ${set} WHERE id = ?`).bind(id).run();
      expect(await version(), set).toBe(before + 1);
    }
    const before = await version();
    await env.DB.prepare(
      "INSERT INTO products (id, slug, sku, category_id, name_en, name_ar, price) VALUES (990001, 'v-1', 'V-1', 1, 'V', 'V', 100)",
    ).run();
    await env.DB.prepare("DELETE FROM products WHERE id = 990001").run();
    expect(await version()).toBe(before + 2);
  });
});
