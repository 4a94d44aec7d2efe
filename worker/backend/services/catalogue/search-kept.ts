import {
  KEEP_MIN_MATCHES,
  keepStatements,
  keepSuggestionStatements,
  MATCH_COUNT,
  MAX_KEPT_SUGGESTIONS,
  SUGGEST_KEEPABLE,
  type Search,
} from "./search-ranking";

/**
 * Kept searches (migration 0022; docs/PERFORMANCE.md "Search at scale"): the ranked
 * matches and the facet cells of a query that matches many products, written once and read by
 * every search for it until the catalogue's text changes. A search for a kept query reads its page
 * as an index range cut at the page's end, and its total and facets from a few hundred cells, so
 * its cost no longer grows with how many products the word matches (services/catalogue/list-builder.ts).
 *
 * A query is kept after the answer to a search for it that found no kept copy, when it matches at
 * least KEEP_MIN_MATCHES products or its copy went stale; and ahead of the first shopper by the
 * seed, for the catalogue's common words (scripts/seed.ts). Every read checks in its own batch
 * that the copy is of the current `search` version and ranks afresh if not: a stale copy is never
 * served, only kept again.
 *
 * Type-ahead keeps its window the same way (migration 0024): the 64 best matches of a prefix, one
 * row per prefix, read with the products' live stock (services/catalogue/search.ts `suggestProducts`).
 */

/** Keeps one query now (a test, or a request's waitUntil). */
export async function keepSearch(db: D1Database, match: Search): Promise<void> {
  await db.batch(keepStatements().map((sql) => db.prepare(sql).bind(match.names, match.details)));
  remember(match, true);
}

/**
 * Moves the `search` version, so no kept copy is read again: for a change to the search index that
 * no product write makes (the console's re-index after a category or brand rename). Product writes
 * move it by themselves (the migration's triggers).
 */
export function bumpSearchVersion(db: D1Database): D1PreparedStatement {
  return db.prepare("UPDATE versions SET value = value + 1 WHERE name = 'search'");
}

// ---------------------------------------------------------------------------------------------
// What this isolate has seen: a query with no kept copy is ranked afresh at once for a while,
// without first asking for its copy; while it keeps one query, it keeps no other.

/** How long an isolate believes a query has no kept copy (another isolate may keep it meanwhile). */
const UNKEPT_MEMORY_MS = 10_000;
const MEMORY_MAX = 512;
const unkept = new Map<string, number>();
const keeping = new Set<string>();

/** A search's key; a type-ahead prefix's (a string, its match expression) cannot be one. */
const keyOf = (match: Search | string) =>
  typeof match === "string" ? `suggest\u0000${match}` : `${match.names}\u0000${match.details}`;

/** Whether a search (or type-ahead, for a prefix's match expression) should first look for its kept copy. */
export function mayBeKept(match: Search | string): boolean {
  const at = unkept.get(keyOf(match));
  return at === undefined || Date.now() - at >= UNKEPT_MEMORY_MS;
}

/**
 * Whether the shop holds any kept search of the current version, as the last search this isolate
 * made found it (unknown at first: assumed so). A shop that holds none (a small one: no query
 * matches KEEP_MIN_MATCHES products) ranks every search afresh without asking for its copy
 * first; a copy kept meanwhile by another isolate is found by the next search, and until then
 * ranking afresh gives the same answer.
 */
let anyKept: boolean | undefined;

/** Whether a search should read its kept copy, if it has one, with its page. */
export function shopKeepsSearches(): boolean {
  return anyKept !== false;
}

/** Notes whether the shop holds any kept search of the current version, as a search just read. */
export function noteKeptSearches(any: boolean): void {
  anyKept = any;
}

/**
 * The searches this isolate last found with a kept copy of the current version: the next page of
 * one, or the next shopper's same words, reads only the copy (list-builder.ts, `Reads`). Whether it
 * is still current is read in that same batch, so this holds no time limit, only a bound.
 */
const kept = new Set<string>();

/** Whether a search's kept copy was current when this isolate last read it. */
export function knownKept(match: Search): boolean {
  return kept.has(keyOf(match));
}

/** Notes what a search (or type-ahead) found: a kept copy of the current version, or none. */
export function remember(match: Search | string, current: boolean): void {
  const key = keyOf(match);
  unkept.delete(key);
  kept.delete(key);
  if (current) {
    if (kept.size >= MEMORY_MAX) kept.delete(kept.values().next().value as string);
    kept.add(key);
    return;
  }
  if (unkept.size >= MEMORY_MAX) unkept.delete(unkept.keys().next().value as string);
  unkept.set(key, Date.now());
}

/**
 * At most this many queries hold kept rows: anyone can search, and each keep writes as many rows as
 * its query matches, so distinct queries (every pair of common words) must not grow the database
 * or its writes without end. The seed keeps about 300 at 100,000 products; a copy kept again in
 * place of its stale self takes no new room.
 */
export const MAX_KEPT_SEARCHES = 2_000;

/**
 * How many distinct networks must have searched for a query before a shopper's search keeps it:
 * anyone can make up distinct broad queries (every pair of common words), and a network is what
 * one person cannot cheaply multiply (an IPv6 caller counts by its /64).
 */
export const KEEP_MIN_NETWORKS = 3;
/** How long a network's search for a query counts towards keeping it. */
export const KEEP_VOTE_WINDOW_MS = 24 * 60 * 60_000;

/** A query's key as stored with its votes: a hash, so a row's size does not grow with the words. */
async function voteKey(match: Search): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(keyOf(match)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Counts this network's search for the query (once per network), clears votes older than the
 * window, and answers how many distinct networks searched for it within the window: one round trip.
 */
async function vote(db: D1Database, match: Search, network: string): Promise<number> {
  const query = await voteKey(match);
  const now = Date.now();
  const [, , counted] = await db.batch<{ n: number }>([
    db.prepare("DELETE FROM search_keep_votes WHERE seen_at < ?").bind(now - KEEP_VOTE_WINDOW_MS),
    db
      .prepare(
        `INSERT INTO search_keep_votes (query, network, seen_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (query, network) DO UPDATE SET seen_at = excluded.seen_at`,
      )
      .bind(query, network, now),
    db.prepare("SELECT COUNT(*) AS n FROM search_keep_votes WHERE query = ?").bind(query),
  ]);
  return counted?.results[0]?.n ?? 0;
}

/**
 * After the answer (the request's waitUntil), keeps a query that had no kept copy of the current
 * version, when it matches many products and there is room, or when its copy went stale (it was
 * worth keeping before). One keep at a time per isolate, so a burst of searches cannot queue
 * keeps at the one database writer. Without a waitUntil, nothing is kept. `matches`: how many
 * shown products the query matches, when the answer counted them (a search without filters), so
 * that one matching few asks the database nothing more. `voter`: for a shopper's search, their
 * network as stored (`hashedNetwork`; null when unknown, which never votes): a new query is then
 * kept only once `minNetworks` distinct networks searched for it, so no one network's made-up
 * queries take the budget from the seed's and the shop's common ones. Without it (the seed, a
 * tool), the query needs no votes.
 */
export function keepLater(
  db: D1Database,
  match: Search,
  stale: boolean,
  defer: ((task: Promise<unknown>) => void) | undefined,
  {
    matches,
    minMatches = KEEP_MIN_MATCHES,
    maxKept = MAX_KEPT_SEARCHES,
    voter,
    minNetworks = KEEP_MIN_NETWORKS,
  }: {
    matches?: number;
    minMatches?: number;
    maxKept?: number;
    voter?: () => Promise<string | null>;
    minNetworks?: number;
  } = {},
): void {
  const key = keyOf(match);
  if (!defer || keeping.size > 0 || (!stale && matches !== undefined && matches < minMatches)) return;
  keeping.add(key);
  const task = async () => {
    if (!stale) {
      const [kept, counted] = await db.batch<{ n: number }>([
        // Copies whose rows are still there, of any version (0: cleared).
        db.prepare("SELECT COUNT(*) AS n FROM search_kept WHERE version > 0"),
        ...(matches === undefined ? [db.prepare(MATCH_COUNT).bind(match.names, match.details)] : []),
      ]);
      if ((matches ?? counted?.results[0]?.n ?? 0) < minMatches || (kept.results[0]?.n ?? 0) >= maxKept) return;
      if (voter) {
        const network = await voter();
        if (network === null || (await vote(db, match, network)) < minNetworks) return;
      }
    }
    await keepSearch(db, match);
  };
  defer(
    task()
      .catch((error: unknown) =>
        console.error(JSON.stringify({ level: "error", event: "search.keep_failed", error: String(error) })),
      )
      .finally(() => keeping.delete(key)),
  );
}

/** A window as type-ahead's answer ranked it: the `search` version then, and its WINDOW_JSON. */
export interface RankedWindow {
  version: number;
  ranked: string;
}

/**
 * Keeps a prefix's type-ahead window now (a test, or a request's waitUntil), if it matches many
 * products and there is room: the window given, or ranked afresh without one. True when it did.
 */
export async function keepSuggestion(
  db: D1Database,
  match: string,
  limits: { minMatches: number; maxKept: number } = { minMatches: KEEP_MIN_MATCHES, maxKept: MAX_KEPT_SUGGESTIONS },
  window?: RankedWindow,
): Promise<boolean> {
  const keepable = await db
    .prepare(SUGGEST_KEEPABLE)
    .bind(match, limits.minMatches, limits.maxKept)
    .first<number>("keepable");
  if (!keepable) return false;
  const [clear, insert] = keepSuggestionStatements(window ? "given" : "rank");
  await db.batch([
    db.prepare(clear),
    window ? db.prepare(insert).bind(match, window.version, window.ranked) : db.prepare(insert).bind(match),
  ]);
  remember(match, true);
  return true;
}

/**
 * After the answer, keeps a prefix's window that had none of the current version, as the answer
 * ranked it (the keep checks that the prefix matches many products and that there is room). It
 * shares the isolate's one keep at a time with searches; without a waitUntil, nothing is kept.
 */
export function keepSuggestionLater(
  db: D1Database,
  match: string,
  window: RankedWindow | undefined,
  defer: ((task: Promise<unknown>) => void) | undefined,
  limits?: { minMatches: number; maxKept: number },
): void {
  const key = keyOf(match);
  if (!defer || keeping.size > 0) return;
  keeping.add(key);
  defer(
    keepSuggestion(db, match, limits, window)
      .catch((error: unknown) =>
        console.error(JSON.stringify({ level: "error", event: "suggest.keep_failed", error: String(error) })),
      )
      .finally(() => keeping.delete(key)),
  );
}

/** Forgets what this isolate has seen (tests). */
export function forgetKeptSearches(): void {
  unkept.clear();
  kept.clear();
  keeping.clear();
  anyKept = undefined;
}
