// A product's slug made from its names: the console's form fills the slug from the name as the
// merchant types, and a duplicated product gets a free one. Pure functions with no imports, so
// the form, the backend and the tests share them.

/** The longest slug the product schema takes (PRODUCT_LIMITS.slug). */
const MAX = 120;

// Arabic letters as their usual Latin spelling in Gulf shop URLs (ش → sh, خ → kh, ع dropped).
const ARABIC_LATIN: Record<string, string> = {
  ا: "a",
  أ: "a",
  إ: "i",
  آ: "a",
  ٱ: "a",
  ء: "",
  ؤ: "u",
  ئ: "i",
  ب: "b",
  ت: "t",
  ث: "th",
  ج: "j",
  ح: "h",
  خ: "kh",
  د: "d",
  ذ: "dh",
  ر: "r",
  ز: "z",
  س: "s",
  ش: "sh",
  ص: "s",
  ض: "d",
  ط: "t",
  ظ: "z",
  ع: "",
  غ: "gh",
  ف: "f",
  ق: "q",
  ك: "k",
  ل: "l",
  م: "m",
  ن: "n",
  ه: "h",
  ة: "a",
  و: "w",
  ى: "a",
  ي: "y",
  پ: "p",
  چ: "ch",
  گ: "g",
  ڤ: "v",
  ک: "k",
  ی: "y",
};

/** Arabic-Indic and Persian digits as Latin digits, Arabic letters spelled in Latin. */
function latinOf(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[\u064B-\u065F\u0670\u0640]/g, "")
    .replace(/[\u0600-\u06FF]/g, (ch) => ARABIC_LATIN[ch] ?? " ");
}

/**
 * A slug from any text: accents dropped (é → e), Arabic spelled in Latin, lowercase, every run of
 * other characters one hyphen, at most 120 characters cut at a word. "" when nothing is left.
 */
export function slugify(text: string): string {
  const words = latinOf(text.normalize("NFKD").replace(/\p{M}/gu, ""))
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()
    .split(" ")
    .filter(Boolean);
  let slug = "";
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if (next.length > MAX) break;
    slug = next;
  }
  return slug || words.join("").slice(0, MAX);
}

/** The slug of a product named so: from the English name, or from the Arabic one when that gives nothing. */
export function slugFromNames(nameEn: string, nameAr: string): string {
  return slugify(nameEn) || slugify(nameAr);
}

/**
 * The first of `base`, `base-2`, `base-3`… that `taken` does not hold, within the slug limit.
 */
export function freeSlug(base: string, taken: (slug: string) => boolean): string {
  const root = base || "product";
  if (!taken(root)) return root;
  for (let n = 2; ; n++) {
    const tail = `-${n}`;
    const candidate = `${root.slice(0, MAX - tail.length).replace(/-+$/, "")}${tail}`;
    if (!taken(candidate)) return candidate;
  }
}
