import { MAX_QUERY_TOKENS, searchTokens } from "./arabic";
import { stem } from "./analysis";

/**
 * Typo tolerance (issue 19): when a search finds nothing, each word of it that no indexed term
 * starts with is replaced by the nearest term of the index's vocabulary (`product_search_vocab`,
 * FTS5's own word list): within one edit for a word of up to four letters, two for a longer one
 * (a swap of two neighbours counts as one). Among equally near terms the one in most products
 * wins. The page then says what it searched for instead.
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

/**
 * The shopper's words with each one the index does not know replaced by its nearest indexed
 * term, or null when nothing was replaced (every word is known, or none has a near term).
 */
export async function correctSpelling(db: D1Database, input: string): Promise<string | null> {
  const words = searchTokens(input).slice(0, MAX_QUERY_TOKENS);
  if (words.length === 0) return null;
  // Digits (models, sizes) and one- or two-letter words are never corrected.
  const candidates = words.map((w) => !/\d/.test(w) && [...w].length >= 3);
  const known = await db.batch(
    words.map((w) =>
      db
        .prepare("SELECT 1 FROM product_search_vocab WHERE term >= ?1 AND term < ?1 || char(1114111) LIMIT 1")
        .bind(stem(w)),
    ),
  );
  const unknown = words.map((_, i) => candidates[i] && known[i].results.length === 0);
  if (!unknown.some(Boolean)) return null;
  // The terms near each unknown word by their spelling alone: counting the products of every
  // term in a letter's range (the vocabulary's `doc`) reads each one's whole list of products, a
  // tenth of a second for a common letter at 100,000 products; only the nearest few are counted.
  const nearby = await db.batch(
    words
      .filter((_, i) => unknown[i])
      .map((w) =>
        db
          .prepare(
            "SELECT term FROM product_search_vocab WHERE term >= ? AND term < ? AND length(term) BETWEEN ? AND ?",
          )
          .bind(w[0], after(w), Math.max(1, w.length - maxEdits(w)), w.length + maxEdits(w)),
      ),
  );
  let k = 0;
  const nearest = words.map((w, i) => {
    if (!unknown[i]) return [];
    const max = maxEdits(w);
    const near = (nearby[k++].results as { term: string }[])
      .map(({ term }) => ({ term, distance: editDistance(w, term, max) }))
      .filter((n) => n.distance <= max);
    const best = Math.min(...near.map((n) => n.distance));
    return near.filter((n) => n.distance === best).map((n) => n.term);
  });
  // Among equally near terms the one in most products wins: only ties are counted.
  const tied = [...new Set(nearest.filter((terms) => terms.length > 1).flat())];
  const docs = new Map<string, number>();
  if (tied.length) {
    const { results } = await db
      .prepare(`SELECT term, doc FROM product_search_vocab WHERE term IN (${tied.map(() => "?").join(", ")})`)
      .bind(...tied)
      .all<{ term: string; doc: number }>();
    for (const row of results) docs.set(row.term, row.doc);
  }
  let replaced = false;
  const corrected = words.map((w, i) => {
    const terms = nearest[i];
    if (terms.length === 0) return w;
    replaced = true;
    // Ties of product counts go to the first in the vocabulary's order, as before.
    return terms.reduce((best, term) => ((docs.get(term) ?? 0) > (docs.get(best) ?? 0) ? term : best));
  });
  return replaced ? corrected.join(" ") : null;
}
