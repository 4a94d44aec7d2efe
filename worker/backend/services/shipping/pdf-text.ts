/**
 * Bilingual text for the shop's PDFs (the shipping documents of labels.ts, the tax documents of
 * einvoicing/invoice-pdf.ts): Latin in the PDF's standard Helvetica (no bytes embedded, and its
 * text stays searchable) or, where the file must embed every font (PDF/A), in a TrueType font the
 * caller gives; Arabic in the embedded Noto Sans Arabic subset (label-font.ts), each line laid out with the Unicode bidirectional algorithm's rules for
 * one paragraph without explicit embeddings (Unicode Standard Annex 9, rules W1–W7, N1–N2, I1–I2, L1–L2), so that an
 * Arabic line reads right to left with its numbers left to right inside it, and an English line
 * may hold an Arabic district's name. fontkit (through pdf-lib) shapes each Arabic run: contextual
 * forms, lam-alef ligatures, and the glyphs put in visual order; GPOS offsets (the harakat's
 * places) are applied here glyph by glyph, since pdf-lib draws only advances.
 */
import fontkit from "@pdf-lib/fontkit";
import {
  type PDFDocument,
  type PDFFont,
  type PDFPage,
  type RGB,
  PDFHexString,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  StandardFonts,
  beginText,
  endText,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingColor,
  setFontAndSize,
  setTextMatrix,
  showText,
} from "pdf-lib";
import { NOTO_SANS_ARABIC_BOLD, NOTO_SANS_ARABIC_REGULAR } from "./label-font.ts";

type Bidi = "L" | "R" | "EN" | "AN" | "ES" | "ET" | "CS" | "NSM" | "WS" | "ON";
export type Direction = "ltr" | "rtl";

/** A glyph run as fontkit lays it out: glyphs in visual order with their advances and offsets (font units). */
interface LaidOut {
  glyphs: { id: number; advanceWidth: number }[];
  positions: { xAdvance: number; yAdvance: number; xOffset: number; yOffset: number }[];
}
interface FontkitFont {
  unitsPerEm: number;
  layout(text: string): LaidOut;
  hasGlyphForCodePoint(codePoint: number): boolean;
}

const isArabicScript = (c: number) =>
  (c >= 0x0600 && c <= 0x06ff) ||
  (c >= 0x0750 && c <= 0x077f) ||
  (c >= 0x08a0 && c <= 0x08ff) ||
  (c >= 0xfb50 && c <= 0xfdff) ||
  (c >= 0xfe70 && c <= 0xfeff);

/** A code point's bidirectional type, for the scripts the shop prints (Arabic is AL, here R). */
function bidiType(c: number): Bidi {
  if (c >= 0x30 && c <= 0x39) return "EN";
  if (c >= 0x06f0 && c <= 0x06f9) return "EN";
  if ((c >= 0x0660 && c <= 0x0669) || c === 0x066b || c === 0x066c) return "AN";
  if ((c >= 0x064b && c <= 0x065f) || c === 0x0670 || (c >= 0x06d6 && c <= 0x06ed && c !== 0x06dd && c !== 0x06de))
    return "NSM";
  if (c === 0x2b || c === 0x2d) return "ES";
  if (c === 0x23 || c === 0x24 || c === 0x25 || c === 0xb0 || c === 0x066a || (c >= 0xa2 && c <= 0xa5)) return "ET";
  if (c === 0x2c || c === 0x2e || c === 0x2f || c === 0x3a || c === 0xa0 || c === 0x060c) return "CS";
  if (c === 0x20 || c === 0x09) return "WS";
  if (isArabicScript(c) || (c >= 0x0590 && c <= 0x05ff)) return "R";
  if (/\p{L}|\p{M}/u.test(String.fromCodePoint(c))) return "L";
  return "ON";
}

/** The paragraph's direction by its first strong character (the bidi algorithm's rule P2), or `fallback` with none. */
export function directionOf(text: string, fallback: Direction = "ltr"): Direction {
  for (const ch of text) {
    const t = bidiType(ch.codePointAt(0)!);
    if (t === "L") return "ltr";
    if (t === "R") return "rtl";
  }
  return fallback;
}

/** Each character's embedding level in a paragraph of direction `dir` (0, 1 or 2). */
export function bidiLevels(chars: string[], dir: Direction): number[] {
  const base = dir === "rtl" ? 1 : 0;
  const sos: Bidi = base ? "R" : "L";
  const t = chars.map((ch) => bidiType(ch.codePointAt(0)!));
  const n = t.length;
  // W1: a mark takes the type of what it follows.
  for (let i = 0; i < n; i++) if (t[i] === "NSM") t[i] = i === 0 ? (sos as Bidi) : t[i - 1] === "WS" ? "ON" : t[i - 1];
  // W2: a European number after Arabic letters is an Arabic number.
  let strong: Bidi = sos;
  for (let i = 0; i < n; i++) {
    if (t[i] === "L" || t[i] === "R") strong = t[i];
    else if (t[i] === "EN" && strong === "R") t[i] = "AN";
  }
  // W4: one separator between two numbers of a kind joins them.
  for (let i = 1; i < n - 1; i++) {
    if (t[i] === "ES" && t[i - 1] === "EN" && t[i + 1] === "EN") t[i] = "EN";
    else if (t[i] === "CS" && t[i - 1] === "EN" && t[i + 1] === "EN") t[i] = "EN";
    else if (t[i] === "CS" && t[i - 1] === "AN" && t[i + 1] === "AN") t[i] = "AN";
  }
  // W5: terminators next to a European number join it.
  for (let i = 0; i < n; i++) {
    if (t[i] !== "ET") continue;
    let j = i;
    while (j < n && t[j] === "ET") j++;
    if ((i > 0 && t[i - 1] === "EN") || (j < n && t[j] === "EN")) for (let k = i; k < j; k++) t[k] = "EN";
    i = j - 1;
  }
  // W6: what separators are left are neutral. W7: a European number after L (or at the start of
  // a left-to-right paragraph) is L.
  strong = sos;
  for (let i = 0; i < n; i++) {
    if (t[i] === "ES" || t[i] === "ET" || t[i] === "CS") t[i] = "ON";
    if (t[i] === "L" || t[i] === "R") strong = t[i];
    else if (t[i] === "EN" && strong === "L") t[i] = "L";
  }
  // N1, N2: a run of neutrals between two strong types of one direction (numbers count as R)
  // takes it; otherwise the paragraph's.
  const strongDir = (x: Bidi): "L" | "R" | null =>
    x === "L" ? "L" : x === "R" || x === "EN" || x === "AN" ? "R" : null;
  for (let i = 0; i < n; i++) {
    if (strongDir(t[i]) !== null) continue;
    let j = i;
    while (j < n && strongDir(t[j]) === null) j++;
    const before = i === 0 ? strongDir(sos) : strongDir(t[i - 1]);
    const after = j === n ? strongDir(sos) : strongDir(t[j]);
    const resolved: Bidi = before === after && before !== null ? before : sos;
    for (let k = i; k < j; k++) t[k] = resolved;
    i = j - 1;
  }
  // I1, I2.
  const levels = t.map((x) => {
    if (base === 0) return x === "L" ? 0 : x === "R" ? 1 : 2;
    return x === "R" ? 1 : 2;
  });
  // L1: trailing white space goes back to the paragraph's level.
  for (let i = n - 1; i >= 0 && (chars[i] === " " || chars[i] === "\t"); i--) levels[i] = base;
  return levels;
}

const MIRRORED: Record<string, string> = {
  "(": ")",
  ")": "(",
  "[": "]",
  "]": "[",
  "<": ">",
  ">": "<",
  "«": "»",
  "»": "«",
};

export interface Fonts {
  latin: PDFFont;
  latinBold: PDFFont;
  arabic: PDFFont;
  arabicBold: PDFFont;
}

let arabicBytes: { regular: Uint8Array; bold: Uint8Array } | null = null;
const fromBase64 = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

/**
 * Embeds the documents' four fonts in `doc` (the Arabic ones subset to the glyphs drawn): for
 * Latin, Helvetica, or the TrueType `latin` fonts given, subset too.
 */
export async function embedFonts(
  doc: PDFDocument,
  latinFonts?: { regular: Uint8Array; bold: Uint8Array },
): Promise<Fonts> {
  doc.registerFontkit(fontkit);
  arabicBytes ??= { regular: fromBase64(NOTO_SANS_ARABIC_REGULAR), bold: fromBase64(NOTO_SANS_ARABIC_BOLD) };
  // No ligatures: a ligature's glyph stands for several letters, which a reader copying the text
  // may not get back, and the Typesetter measures and draws letter by letter.
  const embedLatin = (bytes: Uint8Array) => doc.embedFont(bytes, { subset: true, features: { liga: false } });
  const [latin, latinBold, arabic, arabicBold] = await Promise.all([
    latinFonts ? embedLatin(latinFonts.regular) : doc.embedFont(StandardFonts.Helvetica),
    latinFonts ? embedLatin(latinFonts.bold) : doc.embedFont(StandardFonts.HelveticaBold),
    doc.embedFont(arabicBytes.regular, { subset: true }),
    doc.embedFont(arabicBytes.bold, { subset: true }),
  ]);
  return { latin, latinBold, arabic, arabicBold };
}

/** The fontkit font behind an embedded custom font (pdf-lib keeps it on the font's embedder). */
const fontkitOf = (font: PDFFont) => (font as unknown as { embedder: { font: FontkitFont } }).embedder.font;

/** A stretch of a line drawn in one font, in visual order. */
interface Piece {
  text: string;
  /** The text in logical order (what a reader of the page should get back). */
  logical: string;
  font: PDFFont;
  /** Draw as shaped Arabic (fontkit puts the glyphs in visual order). */
  shaped: boolean;
  width: number;
}

export interface TextStyle {
  size: number;
  bold?: boolean;
  color?: RGB;
}

export const BLACK = rgb(0, 0, 0);

/** Typesets one-line strings of mixed Latin and Arabic text with the documents' fonts. */
export class Typesetter {
  /** What the Latin fonts can draw (Helvetica's WinAnsi, or the embedded font's characters). */
  private readonly latinChars: Set<number>;
  readonly fonts: Fonts;
  constructor(fonts: Fonts) {
    this.fonts = fonts;
    this.latinChars = new Set(fonts.latin.getCharacterSet());
  }

  /** The line's pieces in visual order, left to right. */
  private pieces(text: string, style: TextStyle, dir: Direction): Piece[] {
    const bold = style.bold ?? false;
    const latin = bold ? this.fonts.latinBold : this.fonts.latin;
    const arabic = bold ? this.fonts.arabicBold : this.fonts.arabic;
    const arabicKit = fontkitOf(arabic);
    // Characters neither font has are printed as "?" (the shop's addresses are Arabic and Latin).
    const chars = [...text.replace(/[\r\n\t]+/g, " ")].map((ch) => {
      const c = ch.codePointAt(0)!;
      if (isArabicScript(c)) return arabicKit.hasGlyphForCodePoint(c) ? ch : "?";
      return this.latinChars.has(c) ? ch : "?";
    });
    if (chars.length === 0) return [];
    const levels = bidiLevels(chars, dir);
    // Which font each character takes: Arabic letters the Arabic font, and the neutrals inside an
    // Arabic run too (so a run shapes as one), other characters the Latin font.
    const useArabic = chars.map((ch) => isArabicScript(ch.codePointAt(0)!));
    for (let i = 0; i < chars.length; i++) {
      if (useArabic[i] || levels[i] % 2 === 0) continue;
      const c = chars[i].codePointAt(0)!;
      const t = bidiType(c);
      if (t === "L" || t === "EN" || !arabicKit.hasGlyphForCodePoint(c)) continue;
      let j = i - 1;
      while (j >= 0 && !useArabic[j] && levels[j] === levels[i] && bidiType(chars[j].codePointAt(0)!) !== "EN") j--;
      if (j >= 0 && useArabic[j] && levels[j] === levels[i]) useArabic[i] = true;
    }
    // Runs of one level and one font, in logical order.
    const runs: { level: number; arabic: boolean; chars: string[] }[] = [];
    for (let i = 0; i < chars.length; i++) {
      const last = runs.at(-1);
      if (last && last.level === levels[i] && last.arabic === useArabic[i]) last.chars.push(chars[i]);
      else runs.push({ level: levels[i], arabic: useArabic[i], chars: [chars[i]] });
    }
    // L2: from the highest level down to the lowest odd one, reverse each sequence of runs at that level or higher.
    const maxLevel = Math.max(...runs.map((r) => r.level));
    const minOdd = Math.min(...runs.map((r) => (r.level % 2 ? r.level : r.level + 1)));
    for (let level = maxLevel; level >= minOdd; level--) {
      for (let i = 0; i < runs.length; i++) {
        if (runs[i].level < level) continue;
        let j = i;
        while (j < runs.length && runs[j].level >= level) j++;
        runs.splice(i, j - i, ...runs.slice(i, j).reverse());
        i = j - 1;
      }
    }
    return runs.map((run) => {
      const rtl = run.level % 2 === 1;
      const hasLetters = run.chars.some((ch) => bidiType(ch.codePointAt(0)!) === "R");
      const font = run.arabic ? arabic : latin;
      // fontkit reverses a run it shapes as Arabic; anything else at an odd level is reversed here,
      // with its brackets mirrored.
      const shaped = run.arabic && hasLetters;
      const visual = rtl && !shaped ? [...run.chars].reverse().map((ch) => MIRRORED[ch] ?? ch) : run.chars;
      const s = visual.join("");
      // A shaped run is as wide as its advances after GPOS (marks advance by nothing).
      const width = shaped
        ? (arabicKit.layout(s).positions.reduce((sum, p) => sum + p.xAdvance, 0) * style.size) / arabicKit.unitsPerEm
        : font.widthOfTextAtSize(s, style.size);
      return { text: s, logical: run.chars.join(""), font, shaped, width };
    });
  }

  /** The width of `text` at `style`, in points. */
  width(text: string, style: TextStyle, dir: Direction = directionOf(text)): number {
    return this.pieces(text, style, dir).reduce((sum, p) => sum + p.width, 0);
  }

  /**
   * Draws `text` on one line with its baseline at `y`: from `x` (align "left"), ending at `x`
   * ("right") or centred on `x`. The paragraph's direction is the text's own unless given.
   * Returns the width drawn.
   */
  draw(
    page: PDFPage,
    text: string,
    x: number,
    y: number,
    style: TextStyle,
    align: "left" | "right" | "center" = "left",
    dir: Direction = directionOf(text),
  ): number {
    const pieces = this.pieces(text, style, dir);
    const total = pieces.reduce((sum, p) => sum + p.width, 0);
    let pen = align === "left" ? x : align === "right" ? x - total : x - total / 2;
    const color = style.color ?? BLACK;
    for (const piece of pieces) {
      if (piece.shaped) this.drawShaped(page, piece, pen, y, style.size, color);
      else if (piece.text.trim() !== "")
        page.drawText(piece.text, { x: pen, y, size: style.size, font: piece.font, color });
      pen += piece.width;
    }
    return total;
  }

  /**
   * Draws a shaped Arabic run glyph by glyph at fontkit's positions, so that marks sit where GPOS
   * puts them. pdf-lib's encodeText shapes the same text the same way (same font, no extra
   * features) and gives each glyph's code in the subset, in the same order.
   */
  private drawShaped(page: PDFPage, piece: Piece, x: number, y: number, size: number, color: RGB) {
    const kit = fontkitOf(piece.font);
    const run = kit.layout(piece.text);
    const hex = piece.font.encodeText(piece.text).asString();
    const codes = hex.length / run.glyphs.length;
    if (!Number.isInteger(codes) || codes !== 4) throw new Error("label text: glyph codes do not match the layout");
    const scale = size / kit.unitsPerEm;
    const fontName = page.node.newFontDictionary(piece.font.name, piece.font.ref);
    // The run's letters as marked content's ActualText: Noto Sans Arabic draws a letter as its
    // undotted form and the dots as glyphs of their own, which no ToUnicode map can give back, so
    // search, copy and the tests read the text from here.
    const actual = `<</ActualText ${PDFHexString.fromText(piece.logical).toString()}>>`;
    const ops = [
      PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of("Span"), actual]),
      pushGraphicsState(),
      beginText(),
      setFillingColor(color),
      setFontAndSize(fontName, size),
    ];
    let pen = x;
    // Consecutive glyphs without offsets go out as one string; a mark (or any offset glyph) is placed alone.
    let start = 0;
    let startX = pen;
    const flush = (end: number) => {
      if (end <= start) return;
      ops.push(setTextMatrix(1, 0, 0, 1, startX, y), showTextHex(hex.slice(start * 4, end * 4)));
    };
    run.glyphs.forEach((glyph, i) => {
      const p = run.positions[i];
      const plain = p.xOffset === 0 && p.yOffset === 0 && p.xAdvance === glyph.advanceWidth;
      if (!plain) {
        flush(i);
        ops.push(
          setTextMatrix(1, 0, 0, 1, pen + p.xOffset * scale, y + p.yOffset * scale),
          showTextHex(hex.slice(i * 4, i * 4 + 4)),
        );
        start = i + 1;
        startX = pen + p.xAdvance * scale;
      }
      pen += p.xAdvance * scale;
    });
    flush(run.glyphs.length);
    ops.push(endText(), popGraphicsState(), PDFOperator.of(PDFOperatorNames.EndMarkedContent));
    page.pushOperators(...ops);
  }

  /**
   * Breaks `text` at spaces into lines no wider than `maxWidth` (a word wider than that alone is
   * cut with an ellipsis), at most `maxLines` of them (the last one ellipsised if text is left).
   */
  wrap(text: string, style: TextStyle, maxWidth: number, maxLines = Infinity): string[] {
    const dir = directionOf(text);
    const words = text.split(/\s+/).filter(Boolean);
    const lines: string[] = [];
    let line = "";
    for (const word of words) {
      const candidate = line ? `${line} ${word}` : word;
      if (this.width(candidate, style, dir) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      // A word wider than the column (a SKU, a waybill) is broken across lines, never cut short:
      // a picker must read all of it.
      let rest = word;
      while (rest.length > 1 && this.width(rest, style, dir) > maxWidth) {
        const chars = [...rest];
        let n = chars.length - 1;
        while (n > 1 && this.width(chars.slice(0, n).join(""), style, dir) > maxWidth) n--;
        lines.push(chars.slice(0, n).join(""));
        rest = chars.slice(n).join("");
      }
      line = rest;
    }
    if (line) lines.push(line);
    if (lines.length > maxLines) {
      const kept = lines.slice(0, maxLines);
      kept[maxLines - 1] = this.fit(`${kept[maxLines - 1]} ${lines.slice(maxLines).join(" ")}`, style, maxWidth);
      return kept;
    }
    return lines;
  }

  /** `text`, cut with an ellipsis if wider than `maxWidth`. */
  fit(text: string, style: TextStyle, maxWidth: number): string {
    if (this.width(text, style) <= maxWidth) return text;
    const chars = [...text];
    while (chars.length > 1 && this.width(`${chars.join("").trimEnd()}...`, style) > maxWidth) chars.pop();
    return `${chars.join("").trimEnd()}...`;
  }

  /** The largest size from `size` down to `min` at which `text` fits `maxWidth`. */
  sizeToFit(text: string, style: TextStyle, maxWidth: number, min: number): number {
    let size = style.size;
    while (size > min && this.width(text, { ...style, size }) > maxWidth) size -= 0.5;
    return size;
  }
}

/** `Tj` with a hex string already encoded (glyph codes of a Type 0 font). */
function showTextHex(hex: string) {
  return showText(PDFHexString.of(hex));
}
