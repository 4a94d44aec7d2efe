import { latinDigits } from "../../contract/inputs";

/**
 * Riyal amounts as staff type them in the console, read into halalas. The ONE place the settings
 * page reads money, so a shared money parser can replace it here alone.
 */

/**
 * "25", "25.5", "1,250.00", "٢٥٫٥٠" → halalas (2500, 2550, 125000, 2550); null for anything that
 * is not a non-negative amount with at most two decimals.
 */
export function parseRiyals(text: string | null | undefined): number | null {
  const latin = latinDigits((text ?? "").trim())
    .replace(/\u066B/g, ".")
    .replace(/[\u066C,\s]/g, "");
  if (!/^\d+(\.\d{1,2})?$/.test(latin)) return null;
  const [whole, fraction = ""] = latin.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** Halalas as the console's inputs show them: riyals with two decimals ("25.00"). */
export const riyalsInput = (halalas: number) => (halalas / 100).toFixed(2);
