/**
 * Code 128 (ISO/IEC 15417) for the waybill barcode: the symbol's bars and spaces as module widths,
 * for labels.ts to draw as filled rectangles. Digits go in code set C (two to a symbol, so a
 * 12-digit waybill is 6 symbols instead of 12); anything else printable in ASCII goes in code set B.
 */

/** Each symbol value's bar, space, bar, space, bar, space widths in modules (value 106 is the stop, with its 2-module final bar). */
// prettier-ignore
const PATTERNS = [
  "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212", "221213",
  "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211", "221132",
  "221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",
  "212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313",
  "231113", "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331",
  "231131", "213113", "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111",
  "314111", "221411", "431111", "111224", "111422", "121124", "121421", "141122", "141221", "112214",
  "112412", "122114", "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111",
  "111242", "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",
  "214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311", "113141",
  "114131", "311141", "411131", "211412", "211214", "211232", "2331112",
];
const START_B = 104;
const START_C = 105;
const CODE_B = 100;
const CODE_C = 99;
const STOP = 106;

/** Modules either side of the symbol that must stay blank for a scanner to find it (the standard asks for 10). */
export const QUIET_ZONE_MODULES = 10;

/** The symbol values of `data`: start, data, check symbol, stop. */
export function code128Values(data: string): number[] {
  if (data.length === 0) throw new RangeError("Code 128: nothing to encode");
  for (const ch of data) {
    const c = ch.charCodeAt(0);
    if (ch.length !== 1 || c < 32 || c > 126) throw new RangeError(`Code 128: cannot encode ${JSON.stringify(ch)}`);
  }
  /** How many digits run from position i. */
  const digitsAt = (i: number) => {
    let n = 0;
    while (i + n < data.length && data[i + n] >= "0" && data[i + n] <= "9") n++;
    return n;
  };
  const values: number[] = [];
  let set: "B" | "C";
  // Start in C when the data opens with 4 or more digits (or is 2 digits alone), pairing them from the start.
  const lead = digitsAt(0);
  if (lead >= 4 || (lead === 2 && data.length === 2)) {
    set = "C";
    values.push(START_C);
  } else {
    set = "B";
    values.push(START_B);
  }
  let i = 0;
  while (i < data.length) {
    const run = digitsAt(i);
    if (set === "C") {
      if (run >= 2) {
        values.push(Number(data.slice(i, i + 2)));
        i += 2;
        continue;
      }
      set = "B";
      values.push(CODE_B);
    }
    // In B: switch to C for a run of 4 or more digits (an odd run keeps its first digit in B), or
    // for an even run that ends the data.
    if (run >= 4 || (run >= 2 && run % 2 === 0 && i + run === data.length)) {
      if (run % 2 === 1) {
        values.push(data.charCodeAt(i) - 32);
        i += 1;
      }
      set = "C";
      values.push(CODE_C);
      continue;
    }
    values.push(data.charCodeAt(i) - 32);
    i += 1;
  }
  const check = values.reduce((sum, v, k) => sum + v * Math.max(k, 1), 0) % 103;
  values.push(check, STOP);
  return values;
}

/** The symbol's alternating bar and space widths in modules, starting and ending with a bar (quiet zones not included). */
export function code128Widths(data: string): number[] {
  return code128Values(data).flatMap((v) => [...PATTERNS[v]].map(Number));
}
