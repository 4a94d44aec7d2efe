import { MAX_QUERY_TOKENS, searchTokens } from "./arabic";
import { stem } from "./analysis";
import { SEARCH_VERSION_VALUE } from "./search-ranking";

/**
 * Typo tolerance: when a search finds nothing, each word of it that no indexed term
 * starts with is replaced by the nearest term of the index's vocabulary (`product_search_vocab`,
 * FTS5's own word list): within one edit for a word of up to four letters, two for a longer one
 * (a swap of two neighbours counts as one). Among equally near terms the one in most products
 * wins. The page then says what it searched for instead. The vocabulary is read by first
 * character and held by the isolate under the `search` version (`termsStarting`), so a misspelt
 * search costs no round trip of its own once its letters are held.
 */

/** Edit distance with adjacent transpositions (optimal string alignment), stopping early past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    let best = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i][j] = d;
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
  }
  return rows[a.length][b.length];
}

/** The largest distance a word may be from its correction. */
export const maxEdits = (word: string) => ([...word].length <= 4 ? 1 : 2);

/** The next character after the first of `text`: the upper bound of the terms that start with it. */
const after = (text: string) => String.fromCodePoint((text.codePointAt(0) ?? 0) + 1);

/** A term of the index's vocabulary, and how many products hold it. */
interface Term {
  term: string;
  doc: number;
}

/**
 * The vocabulary's terms by their first character, held by the isolate under the `search` version
 * they were read in (migration 0022: every write that changes what the index holds moves it).
 * Reading a character's terms reads each one's list of products (FTS5's vocabulary counts them
 * as it goes, so their counts come free): 10 to 20 ms for a common letter at 100,000 products,
 * paid once per character and version instead of on each misspelt search.
 */
const held = new Map<string, Term[]>();
let heldVersion: number | undefined;
/** Characters held at most: anyone can search, and every script has its own. */
const MAX_HELD_CHARACTERS = 256;

async function termsStarting(
  db: D1Database,
  characters: string[],
  version: number | undefined,
): Promise<(character: string) => Term[]> {
  // A search that did not read the version with its page (one in another order) reads it now.
  const current = version ?? Number((await db.prepare(SEARCH_VERSION_VALUE).first<number>("value")) ?? 0);
  if (current !== heldVersion) {
    held.clear();
    heldVersion = current;
  }
  const missing = [...new Set(characters)].filter((c) => !held.has(c));
  if (missing.length) {
    const read = await db.batch<Term>(
      missing.map((c) =>
        db.prepare("SELECT term, doc FROM product_search_vocab WHERE term >= ? AND term < ?").bind(c, after(c)),
      ),
    );
    missing.forEach((c, i) => {
      if (held.size >= MAX_HELD_CHARACTERS) held.delete(held.keys().next().value as string);
      held.set(c, read[i].results);
    });
  }
  return (character) => held.get(character) ?? [];
}

/** Forgets the held vocabulary (tests). */
export function forgetHeldTerms(): void {
  held.clear();
  heldVersion = undefined;
}

/**
 * The shopper's words with each one the index does not know replaced by its nearest indexed
 * term, or null when nothing was replaced (every word is known, or none has a near term).
 * `version`: the `search` version the search that found nothing read with its page, if it did.
 */
export async function correctSpelling(db: D1Database, input: string, version?: number): Promise<string | null> {
  const words = searchTokens(input).slice(0, MAX_QUERY_TOKENS);
  // Digits (models, sizes) and one- or two-letter words are never corrected.
  const candidates = words.filter((w) => !/\d/.test(w) && [...w].length >= 3);
  if (candidates.length === 0) return null;
  // A word is known when an indexed term starts with its stem; its near terms start with its own
  // first letter (the stem's may differ: an Arabic article is not a stem's).
  const first = (text: string) => String.fromCodePoint(text.codePointAt(0) ?? 0);
  const terms = await termsStarting(
    db,
    candidates.flatMap((w) => [first(stem(w)), first(w)]),
    version,
  );
  let replaced = false;
  const corrected = words.map((w) => {
    if (!candidates.includes(w)) return w;
    const s = stem(w);
    if (!s || terms(first(s)).some(({ term }) => term.startsWith(s))) return w;
    // The nearest terms by spelling; among equally near ones, the one in most products (ties of
    // that go to the first in the vocabulary's order).
    const max = maxEdits(w);
    let best: Term | undefined;
    let bestDistance = max + 1;
    for (const t of terms(first(w))) {
      const length = [...t.term].length;
      if (Math.abs(length - [...w].length) > max) continue;
      const distance = editDistance(w, t.term, max);
      if (distance < bestDistance || (distance === bestDistance && best && t.doc > best.doc)) {
        best = t;
        bestDistance = distance;
      }
    }
    if (!best) return w;
    replaced = true;
    return best.term;
  });
  return replaced ? corrected.join(" ") : null;
}
