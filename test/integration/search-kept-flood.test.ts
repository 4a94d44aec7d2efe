import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { forgetKeptSearches, keepLater, KEEP_MIN_NETWORKS } from "../../worker/backend/services/catalogue/search-kept";
import { MATCH_COUNT, SEARCH_STATE } from "../../worker/backend/services/catalogue/search-ranking";
import { seedCatalogue } from "../support/catalogue";
import { queriesOf } from "../support/search-reference";

/**
 * The kept-search budget (services/catalogue/search-kept.ts, MAX_KEPT_SEARCHES) is shared by every query:
 * a copy a shopper's search asks for is kept only once several networks searched for it, so one
 * network making up distinct broad queries cannot use the budget up and shut out the useful ones.
 */

beforeAll(() => seedCatalogue(env.DB));

const keptCopies = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM search_kept WHERE version > 0").first<number>("n")) ?? 0;

async function keptState(q: string): Promise<boolean | null> {
  const { names, details } = await queriesOf(q);
  const row = (await env.DB.prepare(SEARCH_STATE)
    .bind(names, details)
    .first<{ version: number; kept: number | null }>())!;
  return row.kept === null ? null : row.kept === row.version;
}

/** Words of the demo catalogue that each match at least one shown product. */
async function matchingWords(words: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const word of words) {
    const { names, details } = await queriesOf(word);
    if (((await env.DB.prepare(MATCH_COUNT).bind(names, details).first<number>("n")) ?? 0) > 0) found.push(word);
  }
  return found;
}

describe("the kept-search budget", () => {
  it("kept-search flood: one network's distinct broad queries do not fill the budget", async () => {
    forgetKeptSearches();
    const words = await matchingWords([
      "samsung",
      "apple",
      "phone",
      "camera",
      "laptop",
      "sony",
      "watch",
      "pro",
      "galaxy",
    ]);
    expect(words.length).toBeGreaterThanOrEqual(4);
    const [useful, ...flood] = words;
    const before = await keptCopies();
    // Room for one more copy than the flood has queries: the flood alone would fill it.
    const limits = { minMatches: 1, maxKept: before + flood.length };
    const keep = async (word: string, network: string | null) => {
      const tasks: Promise<unknown>[] = [];
      keepLater(env.DB, await queriesOf(word), false, (t) => void tasks.push(t), {
        ...limits,
        voter: async () => network,
      });
      await Promise.all(tasks);
    };
    // One network, every query its own: none is kept, however often it asks.
    for (let round = 0; round < 3; round++) for (const word of flood) await keep(word, "network-of-the-flooder");
    expect(await keptCopies()).toBe(before);
    for (const word of flood) expect(await keptState(word), word).toBeNull();
    // An unknown network (no address) never counts.
    for (let round = 0; round < KEEP_MIN_NETWORKS; round++) await keep(useful, null);
    expect(await keptState(useful)).toBeNull();
    // The query shoppers of several networks search for is kept, in the room the flood did not take.
    for (let n = 1; n < KEEP_MIN_NETWORKS; n++) {
      await keep(useful, `network-${n}`);
      expect(await keptState(useful), `after ${n} networks`).toBeNull();
    }
    await keep(useful, `network-${KEEP_MIN_NETWORKS}`);
    expect(await keptState(useful)).toBe(true);
    // Votes older than a day no longer count, and are cleared as new ones come in.
    await env.DB.prepare("UPDATE search_keep_votes SET seen_at = seen_at - 2 * 86400000").run();
    await keep(flood[0], "network-x");
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM search_keep_votes WHERE network != 'network-x'").first<number>(
        "n",
      ),
    ).toBe(0);
  });
});
