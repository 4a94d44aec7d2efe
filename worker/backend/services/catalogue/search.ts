import type { Lang } from "../../env";
import type { Suggestion } from "../../../../contract/catalogue";
import { IsolateMemory } from "../../../../contract/server/isolate-memory";
import { ftsQuery, synonymGroups, type SynonymGroups } from "./analysis";
import type { Answer, Listed } from "./list-assembler";
import type { Reads } from "./list-builder";
import type { ProductFilters } from "./list-filters";
import { productPage } from "./list";
import { keepLater, keepSuggestionLater, knownKept, mayBeKept, remember, shopKeepsSearches } from "./search-kept";
import {
  SEARCH_VERSION,
  SUGGEST_KEPT,
  SUGGEST_KEPT_CHECK,
  SUGGEST_RANKED,
  WINDOW_JSON,
  type Search,
} from "./search-ranking";
import { correctSpelling } from "./spelling";
import { col, parseJson } from "./summary";
import { forgetTaxonomy } from "./taxonomy";

/**
 * Search: the product list a shopper asks for, with or without words (the words analysed with the
 * synonyms, a misspelling corrected, a search of many matches kept: search-kept.ts), and the
 * type-ahead's suggestions.
 */

export const MAX_SUGGESTIONS = 8;

/** The synonym table changes rarely (an operator's edit): an isolate reads it at most this often. */
const SYNONYMS_TTL_MS = 60_000;
let synonymsCache: { at: number; groups: SynonymGroups } | undefined;
/** The synonym rows last read, as one string: a change drops the corrections made with the old ones. */
let synonymsRead: string | undefined;

/** The search synonyms (migration 0009), analysed like the index; kept per isolate for a minute. */
export async function searchSynonyms(db: D1Database): Promise<SynonymGroups> {
  if (synonymsCache && Date.now() - synonymsCache.at < SYNONYMS_TTL_MS) return synonymsCache.groups;
  const { results } = await db
    .prepare("SELECT group_name, term FROM search_synonyms")
    .all<{ group_name: string; term: string }>();
  const read = JSON.stringify(results.map((r) => [r.group_name, r.term]));
  // A word the synonyms now find as typed must not be corrected from memory (see `corrections`).
  if (read !== synonymsRead) corrections.clear();
  synonymsRead = read;
  synonymsCache = { at: Date.now(), groups: synonymGroups(results) };
  return synonymsCache.groups;
}

/** Forgets the kept synonyms and taxonomy, so the next search reads the tables (after an edit; tests). */
export function forgetSearchSynonyms(): void {
  synonymsCache = undefined;
  forgetTaxonomy();
}

/** The product list: search, filters, sort and pagination; a page past the last one is empty. */
export async function listProducts(
  db: D1Database,
  lang: Lang,
  filters: ProductFilters,
  /** Work after the answer (the request's waitUntil): keeping a search that matched many products. */
  defer?: (task: Promise<unknown>) => void,
  /** The searching shopper's network as stored, asked only when a keep is weighed (search-kept.ts `keepLater`). */
  voter?: () => Promise<string | null>,
): Promise<Listed> {
  const synonyms = filters.q ? await searchSynonyms(db) : [];
  // A search this isolate already corrected, under the same `search` version: its correction at
  // once, one round trip instead of two (the next page of it, the next shopper who misspells it).
  const known = filters.q ? corrections.get(correctionKey(filters)) : undefined;
  if (known) {
    const again = await searchPage(db, lang, filters, searchOf(known.corrected, synonyms), defer, voter);
    if (again.searchVersion === known.version && again.listed.meta.total > 0)
      return { ...again.listed, meta: { ...again.listed.meta, searched_for: known.corrected } };
    corrections.delete(correctionKey(filters));
  }
  const found = await searchPage(db, lang, filters, filters.q ? searchOf(filters.q, synonyms) : null, defer, voter);
  if (found.listed.meta.total > 0 || !filters.q) return found.listed;
  // Nothing as typed: a misspelt word may be near a real one (services/catalogue/spelling.ts).
  const corrected = await correctSpelling(db, filters.q, found.searchVersion);
  const match = corrected ? searchOf(corrected, synonyms) : null;
  if (!corrected || !match) return found.listed;
  const { listed, searchVersion } = await searchPage(db, lang, filters, match, defer, voter);
  if (listed.meta.total === 0) return found.listed;
  if (searchVersion !== undefined && searchVersion === found.searchVersion)
    corrections.set(correctionKey(filters), { corrected, version: searchVersion }, CORRECTION_TTL_MS);
  return { ...listed, meta: { ...listed.meta, searched_for: corrected } };
}

/**
 * Searches that found nothing as typed and were corrected, by what decides that (the words and
 * the filters; not the sort or the page): the correction and the `search` version both searches
 * were read in. Whether a search finds anything changes only with what the index holds, which
 * moves that version, or with the synonyms, whose change (read again each minute) drops them all;
 * so a correction is used only while the version it was made in is the one its search reads
 * (checked in that search's own batch; otherwise the search goes as typed). Bounded in entries and
 * time, like the isolate's other memories.
 */
const corrections = new IsolateMemory<{ corrected: string; version: number }>(500);
/**
 * Long, because nothing but those two can make one wrong: a shop's everyday misspellings stay
 * one round trip for as long as its search index is unchanged (the bench's second and third runs
 * of the same words come minutes after the first), not only for the minute after each.
 */
const CORRECTION_TTL_MS = 30 * 60_000;
const correctionKey = (f: ProductFilters) =>
  JSON.stringify([
    f.q,
    f.category ?? "",
    f.brand ?? "",
    f.min_price ?? "",
    f.max_price ?? "",
    !!f.in_stock,
    f.attributes ?? [],
  ]);

/** Forgets the corrections this isolate made (tests). */
export function forgetCorrections(): void {
  corrections.clear();
}

/**
 * A search in relevance order reads its kept copy when it has one of the current version
 * (services/catalogue/search-kept.ts), and otherwise its matches ranked afresh, in the same round trip;
 * after the answer it keeps them if they are many or its copy went stale. Other sorts, and
 * lists, read the products.
 */
async function searchPage(
  db: D1Database,
  lang: Lang,
  filters: ProductFilters,
  match: Search | null,
  defer: ((task: Promise<unknown>) => void) | undefined,
  voter?: () => Promise<string | null>,
): Promise<Answer> {
  const keepable = match !== null && filters.sort === "relevance" && mayBeKept(match);
  const reads: Reads = !keepable || !shopKeepsSearches() ? "fresh" : match && knownKept(match) ? "kept" : "either";
  let answer = await productPage(db, lang, filters, match, reads);
  // The copy this isolate saw is gone or stale (the index changed since): ranked afresh after all.
  if (reads === "kept" && answer.kept !== "current") answer = await productPage(db, lang, filters, match, "fresh");
  if (!match || !keepable) return answer;
  remember(match, answer.kept === "current");
  // Only now: the database answers one statement at a time, and the keep must not go before the page.
  if (answer.kept !== "current")
    keepLater(db, match, answer.kept === "stale", defer, { matches: answer.matches, voter });
  return answer;
}

function searchOf(q: string, synonyms: SynonymGroups): Search | null {
  const names = ftsQuery(q, synonyms);
  const details = ftsQuery(q);
  return names && details ? { names, details } : null;
}

/**
 * Type-ahead: at most eight products whose names (or model, brand, category) start with what was
 * typed, chosen among the SUGGEST_WINDOW best matches by name, in stock first. A prefix that
 * matches many products reads its kept window when it has one of the current version (services/
 * search-kept.ts), and is kept after the answer when it had none: ranking every match is most of
 * a fresh answer's time.
 */
export async function suggestProducts(
  db: D1Database,
  lang: Lang,
  q: string,
  /** Work after the answer (the request's waitUntil): keeping a prefix that matched many products. */
  defer?: (task: Promise<unknown>) => void,
): Promise<Suggestion[]> {
  const match = ftsQuery(q, await searchSynonyms(db));
  if (!match) return [];
  // The eight shown, chosen among a window's rows (`s`: id, score).
  const chosen = (window: string) =>
    `SELECT p.slug, p.${col("name", lang)} AS name, p.model, p.images, p.price, p.currency
     FROM (${window}) s JOIN products p ON p.id = s.id WHERE p.active = 1
     ORDER BY (p.stock > 0) DESC, s.score ASC, p.is_featured DESC, p.id ASC LIMIT ?2`;
  type Row = { slug: string; name: string; model: string | null; images: string; price: number; currency: string };
  let rows: Row[] | undefined;
  if (mayBeKept(match)) {
    const [state, kept] = await db.batch([
      db.prepare(SUGGEST_KEPT_CHECK).bind(match),
      db.prepare(chosen(SUGGEST_KEPT)).bind(match, MAX_SUGGESTIONS),
    ]);
    if ((state.results[0] as { current: number } | undefined)?.current) rows = kept.results as Row[];
    else remember(match, false);
  }
  if (!rows) {
    // Ranked afresh, the window ranked once: the eight chosen from it, and the window itself (with
    // the version it was ranked under) in a row of its own, kept after the answer as it stands.
    const { results } = await db
      .prepare(
        `WITH w AS MATERIALIZED (${SUGGEST_RANKED})
         SELECT NULL AS slug, NULL AS name, NULL AS model, NULL AS images, NULL AS price, NULL AS currency,
           (SELECT ${WINDOW_JSON} FROM w) AS ranked, ${SEARCH_VERSION} AS version
         UNION ALL SELECT *, NULL, NULL FROM (${chosen("SELECT id, score FROM w")})`,
      )
      .bind(match, MAX_SUGGESTIONS)
      .all<Row & { ranked: string | null; version: number | null }>();
    const window = results.find((r) => r.ranked !== null);
    rows = results.filter((r) => r.ranked === null);
    keepSuggestionLater(
      db,
      match,
      window ? { version: Number(window.version), ranked: window.ranked! } : undefined,
      defer,
    );
  }
  return rows.map((r) => ({
    slug: r.slug,
    name: r.name,
    model: r.model ?? "",
    image: parseJson<string[]>(r.images, [])[0] ?? `/backend/media/products/${r.slug}.svg`,
    price: r.price,
    currency: r.currency,
  }));
}
