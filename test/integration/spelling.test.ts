import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { stem } from "../../worker/backend/services/catalogue/analysis";
import { searchTokens } from "../../worker/backend/services/catalogue/arabic";
import type { ProductFilters } from "../../worker/backend/services/catalogue/list-filters";
import { forgetCorrections, forgetSearchSynonyms, listProducts } from "../../worker/backend/services/catalogue/search";
import {
  correctSpelling,
  editDistance,
  forgetHeldTerms,
  maxEdits,
} from "../../worker/backend/services/catalogue/spelling";
import { seedCatalogue } from "../support/catalogue";
import { counted } from "../support/counted-db";

/**
 * Typo tolerance from the terms an isolate holds (services/catalogue/spelling.ts): a misspelt
 * search no longer asks the database for the terms near each word, but holds the vocabulary by
 * first character under the `search` version its page read. Every correction must be the one the
 * whole vocabulary, read afresh, gives by the rule, and none may come from terms held
 * under an older version.
 */

beforeAll(async () => {
  await seedCatalogue(env.DB);
});

/** The rule stated plainly, over the whole vocabulary as it is now. */
async function reference(input: string): Promise<string | null> {
  const { results: vocabulary } = await env.DB.prepare("SELECT term, doc FROM product_search_vocab ORDER BY term").all<{
    term: string;
    doc: number;
  }>();
  let replaced = false;
  const words = searchTokens(input).map((w) => {
    if (/\d/.test(w) || [...w].length < 3) return w;
    if (vocabulary.some(({ term }) => term.startsWith(stem(w)))) return w;
    const near = vocabulary
      .filter(({ term }) => term.codePointAt(0) === w.codePointAt(0))
      .map((t) => ({ ...t, distance: editDistance(w, t.term, maxEdits(w)) }))
      .filter((t) => t.distance <= maxEdits(w));
    if (near.length === 0) return w;
    const nearest = Math.min(...near.map((t) => t.distance));
    const tied = near.filter((t) => t.distance === nearest);
    const most = Math.max(...tied.map((t) => t.doc));
    replaced = true;
    return tied.find((t) => t.doc === most)!.term;
  });
  return replaced ? words.join(" ") : null;
}

const version = async () =>
  (await env.DB.prepare("SELECT value FROM versions WHERE name = 'search'").first<number>("value"))!;

const MISSPELT = [
  "samsng",
  "lenvo",
  "appel iphne",
  "camra",
  "hedphones",
  "labtop",
  "chargr",
  "sonny",
  "xiaomy",
  "televsion",
  "smart wtch",
  "galxy s24",
  "سامسنج",
  "لينوفوو",
  "كاميرة",
  "شاحم",
  "تلفزيوت",
  "سماعت لاسلكية",
  "جوالت",
  "الكاميرت",
  "السماعات",
  "والشاحن",
  "iphone",
  "ab",
];

describe("typo tolerance from held terms", () => {
  it("corrects every word as the whole vocabulary read afresh does, in both languages", async () => {
    forgetHeldTerms();
    let corrected = 0;
    for (const input of MISSPELT) {
      const want = await reference(input);
      expect(await correctSpelling(env.DB, input, await version()), input).toBe(want);
      // Without the version (a search in another order), the same.
      expect(await correctSpelling(env.DB, input), input).toBe(want);
      if (want) corrected++;
    }
    // Most of the list must be corrected, or the comparison proves little.
    expect(corrected).toBeGreaterThan(MISSPELT.length / 2);
  });

  it("holds the terms under the search version: a new term is seen once the version moves, not before", async () => {
    forgetHeldTerms();
    const add = (id: number, name: string) =>
      env.DB.prepare("INSERT INTO product_search (rowid, name, body) VALUES (?, ?, '')").bind(id, name);
    // "qorbox" is one edit from "qorbax" and from "qorbix"; more products hold the one it becomes.
    await env.DB.batch([980001, 980002].map((id) => add(id, "qorbax")));
    await env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'search'").run();
    expect(await correctSpelling(env.DB, "qorbox", await version())).toBe("qorbax");
    // An index write that moves no version (only a raw one can) is not seen: the held terms answer.
    await env.DB.batch([980003, 980004, 980005].map((id) => add(id, "qorbix")));
    expect(await correctSpelling(env.DB, "qorbox", await version())).toBe("qorbax");
    expect(await reference("qorbox")).toBe("qorbix");
    // Once it moves (every product write that changes the index does: migration 0022), they are read again.
    await env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'search'").run();
    expect(await correctSpelling(env.DB, "qorbox", await version())).toBe("qorbix");
    expect(await correctSpelling(env.DB, "qorbox")).toBe("qorbix");
  });

  it("a misspelt search answers with what it searched for instead, in any order", async () => {
    for (const sort of ["relevance", "price_asc", "newest"]) {
      const res = await SELF.fetch(`https://shop.test/backend/products?q=samsng&sort=${sort}&run=${sort}`);
      const body = (await res.json()) as { data: unknown[]; meta: { total: number; searched_for?: string } };
      expect(body.meta.searched_for, sort).toBe("samsung");
      expect(body.meta.total, sort).toBeGreaterThan(0);
      expect(body.data.length, sort).toBeGreaterThan(0);
    }
  });

  it("a search corrected before is corrected at once, in one round trip, until the search version moves", async () => {
    forgetCorrections();
    const filters: ProductFilters = { q: "samsng", sort: "relevance", page: 1, per_page: 12, facets: true };
    const first = counted(env.DB);
    const before = await listProducts(first.db, "en", filters);
    expect(before.meta.searched_for).toBe("samsung");
    expect(first.trips()).toBeGreaterThanOrEqual(2);
    // Its next page, or the next shopper's same words: one trip, the same answer.
    const again = counted(env.DB);
    expect(await listProducts(again.db, "en", filters)).toEqual(before);
    expect(again.trips()).toBe(1);
    // Other filters are another search: not answered from this one's correction.
    const branded = counted(env.DB);
    await listProducts(branded.db, "en", { ...filters, brand: "apple" });
    expect(branded.trips()).toBeGreaterThanOrEqual(2);
    // What the index holds changed: the words are searched as typed first again.
    await env.DB.prepare("UPDATE versions SET value = value + 1 WHERE name = 'search'").run();
    const moved = counted(env.DB);
    expect((await listProducts(moved.db, "en", filters)).meta.searched_for).toBe("samsung");
    expect(moved.trips()).toBeGreaterThanOrEqual(3);
  });

  it("a correction outlasts the synonyms' minute, until the synonyms change", async () => {
    forgetCorrections();
    const filters: ProductFilters = { q: "lenvo", sort: "relevance", page: 1, per_page: 12, facets: true };
    const arabic: ProductFilters = { ...filters, q: "سامسنج" };
    const arabicCorrection = await reference("سامسنج");
    expect(arabicCorrection).not.toBeNull();
    expect((await listProducts(env.DB, "en", filters)).meta.searched_for).toBe("lenovo");
    expect((await listProducts(env.DB, "ar", arabic)).meta.searched_for).toBe(arabicCorrection);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      // Twenty minutes on: another shopper's search reads the synonyms (unchanged), the catalogue
      // version and the taxonomy again, and the correction still answers at once.
      vi.setSystemTime(Date.now() + 20 * 60_000);
      expect((await SELF.fetch("https://shop.test/backend/products?q=camera&run=later")).status).toBe(200);
      const later = counted(env.DB);
      expect((await listProducts(later.db, "en", filters)).meta.searched_for).toBe("lenovo");
      expect(later.trips()).toBe(1);
      const laterArabic = counted(env.DB);
      expect((await listProducts(laterArabic.db, "ar", arabic)).meta.searched_for).toBe(arabicCorrection);
      expect(laterArabic.trips()).toBe(1);
      // An operator makes the misspelling a synonym: it now finds as typed, with no correction.
      await env.DB.prepare("INSERT INTO search_synonyms (group_name, term) VALUES ('lenovo', 'lenvo')").run();
      forgetSearchSynonyms();
      const found = await listProducts(env.DB, "en", filters);
      expect(found.meta.searched_for).toBeUndefined();
      expect(found.meta.total).toBeGreaterThan(0);
    } finally {
      vi.useRealTimers();
      await env.DB.prepare("DELETE FROM search_synonyms WHERE term = 'lenvo'").run();
      forgetSearchSynonyms();
    }
  });
});
