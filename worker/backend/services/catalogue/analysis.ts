import { stemmer as englishStem } from "@orama/stemmers/english";
import { foldArabic, MAX_QUERY_TOKENS, searchTokens } from "./arabic.ts";

/**
 * Search analysis in both languages, the same at indexing and at query time: each word
 * is folded (arabic.ts), then reduced to a stem, so «التلفزيونات», «تلفزيونات» and «تلفزيون», or
 * "televisions" and "television", meet the same indexed term.
 *
 * English words go through the Snowball (Porter 2) stemmer of `@orama/stemmers`. Its Arabic
 * stemmer was tried on real words and gives one word several stems (تلفزيونات → تلفزيونا,
 * التلفزيونات → تلفزيون, تلفزيون → تلفزي), which a prefix search cannot bridge; Arabic words
 * therefore get a light stemmer in the manner of Larkey's light10 (the article and attached
 * prepositions in front, plural, dual and feminine endings behind), applied until nothing more
 * comes off so that a plural and its singular end on the same stem. Broken plurals (هواتف/هاتف,
 * حواسيب/حاسوب) are the synonym table's business (search-synonyms.ts).
 *
 * Pure, like arabic.ts: the seed scripts (Node) index with it and the Worker queries with it.
 */

/** The article with the prepositions and conjunctions that attach to it, longest first. */
const ARABIC_PREFIXES = ["وال", "بال", "كال", "فال", "لل", "ال"];
/** Endings and the shortest word each may come off (so short words and names keep their letters). */
const ARABIC_SUFFIXES: [ending: string, minLength: number][] = [
  ["ات", 5], // feminine sound plural: سماعات
  ["ون", 6], // masculine sound plural: تلفزيون keeps its stem with تلفزيونات
  ["ين", 6],
  ["ان", 6], // dual
  ["ها", 5],
  ["يه", 5], // nisba + taa marbuta (folded ة → ه): اللاسلكية
  ["ه", 4], // taa marbuta, folded: سماعة
  ["ي", 5], // nisba: اللاسلكي
  ["ا", 6], // a final alef of a loanword: كاميرا with الكاميرات
];
const ARABIC_LETTERS = /^[\u0621-\u064A]+$/;
const LATIN_WORD = /^[a-z]+$/;

/** The light stem of one folded Arabic word. */
export function stemArabic(word: string): string {
  let stem = word;
  for (let changed = true; changed;) {
    changed = false;
    for (const prefix of ARABIC_PREFIXES) {
      if (stem.startsWith(prefix) && stem.length - prefix.length >= 3) {
        stem = stem.slice(prefix.length);
        changed = true;
        break;
      }
    }
    for (const [ending, min] of ARABIC_SUFFIXES) {
      if (stem.endsWith(ending) && stem.length >= min && stem.length - ending.length >= 3) {
        stem = stem.slice(0, -ending.length);
        changed = true;
        break;
      }
    }
  }
  return stem;
}

/** The stem of one folded word: Arabic letters by the light stemmer, Latin letters by Snowball, the rest as it is. */
export function stem(word: string): string {
  if (ARABIC_LETTERS.test(word)) return stemArabic(word);
  if (LATIN_WORD.test(word)) return englishStem(word);
  return word;
}

/** The analysed terms of a text: folded, split like FTS5's unicode61 tokenizer, stemmed. */
export function analyze(text: string): string[] {
  return searchTokens(text).map(stem);
}

/**
 * A text as it goes into the search index: each word's stem, and the folded word itself when it
 * differs, so a query stem finds a word whichever of the two it is a prefix of.
 */
export function indexText(text: string): string {
  const out: string[] = [];
  for (const word of searchTokens(text)) {
    const s = stem(word);
    out.push(s);
    if (s !== word) out.push(word);
  }
  return out.join(" ");
}

const MAX_TOKEN_LENGTH = 40;

/** What a shopper typed, as at most MAX_QUERY_TOKENS analysed terms. */
export function queryTerms(input: string): string[] {
  return analyze(foldArabic(input))
    .map((t) => t.slice(0, MAX_TOKEN_LENGTH))
    .slice(0, MAX_QUERY_TOKENS);
}

/**
 * Synonym groups, analysed: each group is a list of alternatives, each alternative the stems of
 * one term (several for a term of several words, «حاسوب محمول»).
 */
export type SynonymGroups = string[][][];

const NO_SYNONYMS: SynonymGroups = [];

/** One FTS5 alternative: a quoted phrase of stems, prefix-matched on its last word. */
const phrase = (stems: string[]) => `"${stems.map((s) => s.replace(/"/g, '""')).join(" ")}"*`;

const sameStems = (a: string[], b: string[]) => a.length === b.length && a.every((s, i) => s === b[i]);

/**
 * Turns whatever a shopper typed into a safe FTS5 MATCH expression: each word analysed, quoted and
 * prefix-matched, all words required (`"ايفون"* AND "15"*`). A word, or a run of words, that is a term
 * of a synonym group may match any term of the group (`("هواتف"* OR "phone"* OR …)`); the longest
 * run wins, so «حاسوب محمول» is one laptop, not a computer and something portable. Operators and
 * syntax in the input (`"`, `*`, `OR`, `NEAR(`, `-`, `:`) become plain words or vanish, so a query
 * can never be an FTS5 syntax error. Returns null when nothing searchable is left.
 */
export function ftsQuery(input: string, synonyms: SynonymGroups = NO_SYNONYMS): string | null {
  const terms = queryTerms(input);
  if (terms.length === 0) return null;
  return ftsQueryOf(terms, synonyms);
}

/** A number run into its unit ("16gb", "65inch") as the two terms typed values are indexed as, or null. */
export function numberAndUnit(term: string): [string, string] | null {
  const joined = /^(\d+)([a-z]+)$/.exec(term);
  return joined ? [joined[1], stem(joined[2])] : null;
}

/** `ftsQuery` for terms already analysed. */
function ftsQueryOf(terms: string[], synonyms: SynonymGroups): string {
  const units: string[] = [];
  for (let i = 0; i < terms.length;) {
    let taken = 1;
    let alternatives: string[][] = [[terms[i]]];
    for (const group of synonyms) {
      for (const term of group) {
        const run = terms.slice(i, i + term.length);
        if (term.length >= taken && sameStems(run, term)) {
          if (term.length > taken) alternatives = [run];
          taken = term.length;
          for (const other of group) if (!alternatives.some((a) => sameStems(a, other))) alternatives.push(other);
        }
      }
    }
    // A number run into its unit ("16gb", "65inch") also finds them written apart, as typed values
    // are indexed ("16 GB": services/catalogue/attributes.ts).
    const apart = taken === 1 ? numberAndUnit(terms[i]) : null;
    if (apart) alternatives.push(apart);
    units.push(alternatives.length === 1 ? phrase(alternatives[0]) : `(${alternatives.map(phrase).join(" OR ")})`);
    i += taken;
  }
  return units.join(" AND ");
}

/** Rows of the synonym table (group, term as typed) as analysed groups for `ftsQuery`. */
export function synonymGroups(rows: { group_name: string; term: string }[]): SynonymGroups {
  const groups = new Map<string, string[][]>();
  for (const { group_name, term } of rows) {
    const stems = analyze(term);
    if (stems.length === 0) continue;
    const group = groups.get(group_name) ?? [];
    if (!group.some((t) => sameStems(t, stems))) group.push(stems);
    groups.set(group_name, group);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}
