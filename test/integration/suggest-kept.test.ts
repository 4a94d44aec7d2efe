import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { Suggestion } from "../../contract/catalogue";
import { ftsQuery, synonymGroups } from "../../worker/backend/services/catalogue/analysis";
import {
  forgetKeptSearches,
  keepSuggestion,
  keepSuggestionLater,
} from "../../worker/backend/services/catalogue/search-kept";
import {
  KEEP_MIN_MATCHES,
  MAX_KEPT_SUGGESTIONS,
  SUGGEST_KEPT_CHECK,
} from "../../worker/backend/services/catalogue/search-ranking";
import { seedSearchCatalogue } from "../support/search-reference";

/**
 * Kept suggestions (migration 0024, services/catalogue/search-kept.ts): type-ahead's window of the 64 best
 * matches of a prefix, kept so that a two-letter prefix matching a sixth of a large catalogue does
 * not rank every match on each keystroke. What a kept window answers must be what ranking afresh
 * answers, through sales and hiding (read live), and a text edit must stop it being read.
 */

beforeAll(seedSearchCatalogue);

/** Prefixes as a shopper types them, in both languages, from two letters. */
const PREFIXES: [string, "en" | "ar"][] = [
  ["ph", "en"],
  ["pho", "en"],
  ["sa", "en"],
  ["sams", "en"],
  ["ca", "en"],
  ["la", "en"],
  ["سا", "ar"],
  ["سام", "ar"],
  ["جر", "ar"],
  ["ها", "ar"],
];
const ALL = { minMatches: 1, maxKept: MAX_KEPT_SUGGESTIONS };

async function matchOf(prefix: string): Promise<string> {
  const { results } = await env.DB.prepare("SELECT group_name, term FROM search_synonyms").all<{
    group_name: string;
    term: string;
  }>();
  return ftsQuery(prefix, synonymGroups(results))!;
}

/** The window's state: null when none is kept, else whether it is of the current version. */
async function keptState(prefix: string): Promise<boolean | null> {
  const row = await env.DB.prepare(SUGGEST_KEPT_CHECK)
    .bind(await matchOf(prefix))
    .first<{ current: number }>();
  return row ? row.current === 1 : null;
}

let requests = 0;
/** Type-ahead as the API answers it (a fresh ignored parameter: never a copy kept by the edge cache). */
async function suggest(prefix: string, lang: "en" | "ar"): Promise<string[]> {
  const res = await SELF.fetch(
    `https://shop.test/backend/search/suggest?q=${encodeURIComponent(prefix)}&request=${++requests}`,
    { headers: { "content-language": lang } },
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Suggestion[] }).data.map((s) => s.slug);
}

/** What type-ahead answers, stated plainly: the 64 best by name (ties by id), then in stock first, score, featured, id. */
async function reference(prefix: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    `SELECT p.slug FROM (
       SELECT rowid AS id, bm25(product_search, 10.0, 1.0) AS score FROM product_search WHERE product_search MATCH ?
       ORDER BY score, rowid LIMIT 64
     ) s JOIN products p ON p.id = s.id WHERE p.active = 1
     ORDER BY (p.stock > 0) DESC, s.score ASC, p.is_featured DESC, p.id ASC LIMIT 8`,
  )
    .bind(await matchOf(prefix))
    .all<{ slug: string }>();
  return results.map((r) => r.slug);
}

async function compareAll(what: string): Promise<void> {
  for (const [prefix, lang] of PREFIXES)
    expect(await suggest(prefix, lang), `${what}: ${prefix}`).toEqual(await reference(prefix));
}

describe("kept suggestions", () => {
  beforeAll(async () => {
    forgetKeptSearches();
    for (const [prefix] of PREFIXES)
      expect(await keepSuggestion(env.DB, await matchOf(prefix), ALL), prefix).toBe(true);
  });

  it("answer as ranking afresh does, and the answer comes from the window", async () => {
    for (const [prefix] of PREFIXES) expect(await keptState(prefix), prefix).toBe(true);
    // The catalogue makes the comparison worth something: prefixes with a full answer.
    for (const [prefix] of PREFIXES.slice(0, 3)) expect(await reference(prefix)).toHaveLength(8);
    await compareAll("kept");
    // A window narrowed by hand (no version moves) is what type-ahead reads.
    const match = await matchOf("ph");
    const [first] = await reference("ph");
    const id = (await env.DB.prepare("SELECT id FROM products WHERE slug = ?").bind(first).first<number>("id"))!;
    await env.DB.prepare("UPDATE search_kept_suggestions SET ranked = json_array(json_array(?, -1.0)) WHERE query = ?")
      .bind(id, match)
      .run();
    expect(await suggest("ph", "en")).toEqual([first]);
    expect(await keepSuggestion(env.DB, match, ALL)).toBe(true);
    expect(await suggest("ph", "en")).toEqual(await reference("ph"));
  });

  it("follow sales, restocks and hiding at once, without going stale", async () => {
    const shown = [...new Set((await Promise.all(PREFIXES.map(([p]) => reference(p)))).flat())];
    const ids = async (slugs: string[]) =>
      (
        await env.DB.prepare(`SELECT id FROM products WHERE slug IN (${slugs.map(() => "?").join(", ")})`)
          .bind(...slugs)
          .all<{ id: number }>()
      ).results.map((r) => r.id);
    const sold = await ids(shown.filter((_, i) => i % 3 === 0));
    const hidden = await ids(shown.filter((_, i) => i % 7 === 1));
    await env.DB.prepare(`UPDATE products SET stock = 0 WHERE id IN (${sold.join(", ")})`).run();
    await env.DB.prepare(`UPDATE products SET active = 0 WHERE id IN (${hidden.join(", ")})`).run();
    try {
      for (const [prefix] of PREFIXES) expect(await keptState(prefix), prefix).toBe(true);
      await compareAll("after sales and hiding");
    } finally {
      await env.DB.prepare(`UPDATE products SET stock = 7 WHERE id IN (${sold.join(", ")})`).run();
      await env.DB.prepare(`UPDATE products SET active = 1 WHERE id IN (${hidden.join(", ")})`).run();
    }
    await compareAll("after restocks");
  });

  it("stop being read after a text edit, and are answered afresh until kept again", async () => {
    // Every window narrowed by hand to one product first: a stale window read would show it alone.
    await env.DB.prepare(
      "UPDATE search_kept_suggestions SET ranked = json_array(json_array((SELECT MIN(id) FROM products WHERE active = 1), -1.0))",
    ).run();
    await env.DB.prepare(
      "UPDATE products SET name_en = 'Phone ' || name_en WHERE id = (SELECT MIN(id) FROM products WHERE active = 1 AND name_en NOT LIKE 'Phone%')",
    ).run();
    for (const [prefix] of PREFIXES) expect(await keptState(prefix), prefix).toBe(false);
    await compareAll("stale");
    for (const [prefix] of PREFIXES) expect(await keepSuggestion(env.DB, await matchOf(prefix), ALL)).toBe(true);
    await compareAll("kept again");
    // Keeping after a version moved clears the stale windows of other prefixes too.
    const { n } = (await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM search_kept_suggestions WHERE version <> (SELECT value FROM versions WHERE name = 'search')",
    ).first<{ n: number }>())!;
    expect(n).toBe(0);
  });

  it("a prefix is kept after its answer only when it matches many products and there is room, one keep at a time", async () => {
    const match = await matchOf("lenovo");
    const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM product_search WHERE product_search MATCH ?")
      .bind(match)
      .first<{ n: number }>())!;
    expect(n).toBeGreaterThan(10);
    const windows = (await env.DB.prepare("SELECT COUNT(*) AS n FROM search_kept_suggestions").first<number>("n"))!;
    const tasks: Promise<unknown>[] = [];
    const defer = (task: Promise<unknown>) => void tasks.push(task);
    const keep = async (minMatches: number, maxKept: number) => {
      keepSuggestionLater(env.DB, match, undefined, defer, { minMatches, maxKept });
      await Promise.all(tasks.splice(0));
    };
    await keep(n + 1, MAX_KEPT_SUGGESTIONS);
    expect(await keptState("lenovo"), "too few matches").toBeNull();
    await keep(n, windows);
    expect(await keptState("lenovo"), "no room").toBeNull();
    await keep(n, windows + 1);
    expect(await keptState("lenovo")).toBe(true);
    // Searches and type-ahead share the isolate's one keep at a time.
    const [sony, apple] = [await matchOf("sony"), await matchOf("apple")];
    keepSuggestionLater(env.DB, sony, undefined, defer);
    keepSuggestionLater(env.DB, apple, undefined, defer);
    expect(tasks).toHaveLength(1);
    await Promise.all(tasks.splice(0));
  });

  it("type-ahead keeps a prefix that matches many products after its answer", async () => {
    // The shop's own threshold: a prefix of this catalogue that matches that many, if any does.
    const { results } = await env.DB.prepare(
      "SELECT substr(term, 1, 2) AS prefix, SUM(doc) AS docs FROM product_search_vocab GROUP BY 1 ORDER BY docs DESC LIMIT 20",
    ).all<{ prefix: string; docs: number }>();
    let many: string | undefined;
    for (const { prefix } of results) {
      if (!ftsQuery(prefix)) continue;
      const { n } = (await env.DB.prepare("SELECT COUNT(*) AS n FROM product_search WHERE product_search MATCH ?")
        .bind(await matchOf(prefix))
        .first<{ n: number }>())!;
      if (n >= KEEP_MIN_MATCHES && (await keptState(prefix)) === null) {
        many = prefix;
        break;
      }
    }
    expect(many, "a prefix matching KEEP_MIN_MATCHES products").toBeDefined();
    forgetKeptSearches();
    await expect
      .poll(
        async () => {
          await suggest(many!, "en");
          return keptState(many!);
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    expect(await suggest(many!, "en")).toEqual(await reference(many!));
    // Kept as the answer ranked it: the same window as ranking it for the keep.
    const rankedOf = async () =>
      JSON.parse(
        (await env.DB.prepare("SELECT ranked FROM search_kept_suggestions WHERE query = ?")
          .bind(await matchOf(many!))
          .first<string>("ranked"))!,
      ) as [number, number][];
    const given = await rankedOf();
    expect(given).toHaveLength(64);
    expect(await keepSuggestion(env.DB, await matchOf(many!), ALL)).toBe(true);
    expect(await rankedOf()).toEqual(given);
  });
});
