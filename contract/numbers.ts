// Numbers as a merchant types them: the one reader of amounts and counts, for every numeric field of
// the console and every cell of an imported CSV, in the browser and the backend alike. No
// dependencies (like limits.ts), so a form can read what was typed without loading valibot; the
// valibot schemas built on it are in number-schemas.ts.
//
// Accepted: Western (0-9), Arabic-Indic (٠-٩) and Persian (۰-۹) digits; a point or the Arabic
// decimal separator "٫" before the decimals; "," or the Arabic "٬" between groups of three digits
// (1,299.50 or ١٬٢٩٩٫٥٠); spaces anywhere. Amounts are read from their text digit by digit into
// integer minor units (halalas), never through a float, so "0.29" is 29 halalas and not 28.999….

/** Why a text is not the number asked for; a form or an import says it in the reader's words. */
export type NumberProblem =
  /** Nothing was typed. */
  | "empty"
  /** Not a number at all (letters, two decimal points…). */
  | "format"
  /** A thousands separator in the wrong place ("12,5"): a comma never stands for the decimal point. */
  | "grouping"
  /** More decimals than the unit has (a third decimal in riyals), or any decimal in a count. */
  | "decimals"
  /** A minus sign where only amounts of zero or more make sense. */
  | "negative"
  /** Outside the field's bounds (`min`/`max` of the reading). */
  | "range";

export type NumberReading = { ok: true; value: number } | { ok: false; problem: NumberProblem };

export interface NumberRules {
  /** Decimals the unit allows: 2 for riyals (read as halalas), 0 for counts. */
  decimals: number;
  /** The smallest and largest value allowed, in the result's units (halalas, items). */
  min?: number;
  max?: number;
}

const SPACES = /[\s\u00a0\u2009\u202f\u200e\u200f\u061c]/g;

/**
 * The text with its digits Western, its decimal separator a point and its thousands separators
 * commas; spaces and direction marks (which an RTL field or a spreadsheet may insert) removed.
 */
export function normalizeNumberText(text: string): string {
  return text
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/\u066B/g, ".")
    .replace(/\u066C/g, ",")
    .replace(/[\u2212\u2013]/g, "-")
    .replace(SPACES, "");
}

/** At most this many digits before the decimals: 10^13 halalas stays far inside exact integers. */
const MAX_WHOLE_DIGITS = 13;

/**
 * Reads a typed number into integer units of 10^-decimals: `readNumber("٢٩٩٫٥٠", {decimals: 2})`
 * is 29950. Trailing zeros beyond the allowed decimals are accepted ("1.500" is 150), as they
 * change nothing.
 */
export function readNumber(text: string, rules: NumberRules): NumberReading {
  const s = normalizeNumberText(text);
  if (s === "") return { ok: false, problem: "empty" };
  const match = /^([+-]?)([\d,]*)(?:\.(\d*))?$/.exec(s);
  if (!match || !/\d/.test(s)) return { ok: false, problem: "format" };
  const [, sign = "", grouped = "", fraction = ""] = match;
  if (grouped.includes(",") && !/^\d{1,3}(,\d{3})+$/.test(grouped)) return { ok: false, problem: "grouping" };
  const whole = grouped.replace(/,/g, "").replace(/^0+(?=\d)/, "");
  const decimals = fraction.replace(/0+$/, "");
  if (decimals.length > rules.decimals) return { ok: false, problem: "decimals" };
  if (whole.length > MAX_WHOLE_DIGITS) return { ok: false, problem: "range" };
  const scale = 10 ** rules.decimals;
  const magnitude = Number(whole || "0") * scale + Number(decimals.padEnd(rules.decimals, "0") || "0");
  const value = sign === "-" && magnitude !== 0 ? -magnitude : magnitude;
  if (value < 0 && (rules.min ?? 0) >= 0) return { ok: false, problem: "negative" };
  if ((rules.min !== undefined && value < rules.min) || (rules.max !== undefined && value > rules.max))
    return { ok: false, problem: "range" };
  return { ok: true, value };
}

/** An amount in riyals (or any currency with two decimals) read as halalas. */
export function readMoney(text: string, bounds: { min?: number; max?: number } = {}): NumberReading {
  return readNumber(text, { decimals: 2, ...bounds });
}

/** A count (stock, a limit, a quantity): a whole number. */
export function readCount(text: string, bounds: { min?: number; max?: number } = {}): NumberReading {
  return readNumber(text, { decimals: 0, ...bounds });
}

/**
 * Integer minor units as the plain decimal text a person types and a spreadsheet reads back:
 * 29950 → "299.50", -5 → "-0.05". Exact (integer arithmetic), Western digits, no grouping.
 */
export function formatMinorUnits(minor: number, decimals = 2): string {
  const sign = minor < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(minor));
  if (decimals === 0) return `${sign}${abs}`;
  const scale = 10 ** decimals;
  return `${sign}${Math.floor(abs / scale)}.${String(abs % scale).padStart(decimals, "0")}`;
}

/** Western digits as Arabic-Indic ones, and the point as "٫": how an Arabic hint writes an example. */
export function arabicIndicDigits(text: string): string {
  return text.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d))).replace(/\./g, "\u066B");
}

/** "1000000.00" → "1,000,000.00": a bound as a message writes it. */
export function groupThousands(text: string): string {
  const [whole = "", fraction] = text.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** A bound of a field in the unit a person types: riyals with their decimals, or a plain count. */
export function boundText(value: number, rules: NumberRules): string {
  return groupThousands(formatMinorUnits(value, rules.decimals));
}
