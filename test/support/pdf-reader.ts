// Reads back what a PDF page draws, for the shipping documents' tests (labels.test.ts): its
// rectangles (`re`, with whether they were filled or stroked and the line width), its text pieces
// (one per BT … ET block, with the font's kind, position and text), and a Code 128 reader over the
// filled rectangles. Written apart from the documents' code: it parses the content stream itself
// (pdf-lib only loads the file and inflates the streams) and holds its own Code 128 table.
import {
  PDFArray,
  PDFDict,
  type PDFDocument,
  PDFName,
  type PDFPage,
  PDFRawStream,
  PDFStream,
  decodePDFRawStream,
} from "pdf-lib";

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
  filled: boolean;
  stroked: boolean;
  lineWidth: number;
}

export interface TextPiece {
  /** "latin" for a simple font (WinAnsi bytes), "cid" for a Type 0 font read through its ToUnicode map. */
  kind: "latin" | "cid";
  font: string;
  size: number;
  x: number;
  y: number;
  /**
   * The text in logical order: the ActualText of the marked content around it, or else its
   * glyphs' characters (for an Arabic Type 0 font, drawn in visual order: reversed).
   */
  text: string;
  actualText?: string;
  /** Each drawn glyph's characters, in drawing order. */
  glyphs: string[];
}

type Token =
  number | string | { name: string } | { hex: string } | { literal: string } | { actualText: string } | Token[];

/** A PDF text string in UTF-16BE hex, its byte order mark first. */
function utf16(hex: string): string {
  const units: number[] = [];
  for (let k = hex.toUpperCase().startsWith("FEFF") ? 4 : 0; k < hex.length; k += 4)
    units.push(parseInt(hex.slice(k, k + 4), 16));
  return String.fromCharCode(...units);
}

function streamBytes(obj: unknown): Uint8Array {
  if (obj instanceof PDFRawStream) return decodePDFRawStream(obj).decode();
  if (obj instanceof PDFStream) return obj.getContents();
  throw new Error(`not a stream: ${String(obj)}`);
}

/** The page's content stream(s), inflated and joined. */
export function pageContent(page: PDFPage): string {
  const contents = page.node.Contents();
  if (!contents) return "";
  const parts = contents instanceof PDFArray ? contents.asArray().map((r) => page.doc.context.lookup(r)) : [contents];
  return parts.map((s) => new TextDecoder("latin1").decode(streamBytes(s))).join("\n");
}

/** The content stream's tokens, each operator as a bare string after its operands. */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  const stack: Token[][] = [out];
  let i = 0;
  const push = (t: Token) => stack[stack.length - 1].push(t);
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) i++;
    else if (c === "%") while (i < src.length && src[i] !== "\n") i++;
    else if (c === "[") {
      const arr: Token[] = [];
      push(arr);
      stack.push(arr);
      i++;
    } else if (c === "]") {
      stack.pop();
      i++;
    } else if (c === "<" && src[i + 1] === "<") {
      // An inline dictionary (a marked-content property list): only its ActualText is kept.
      const m = /^<<\s*(?:\/ActualText\s*<([0-9a-fA-F\s]*)>\s*)?/.exec(src.slice(i))!;
      const end = src.indexOf(">>", i + m[0].length);
      push({ actualText: m[1] ? utf16(m[1].replace(/\s+/g, "")) : "" });
      i = end + 2;
    } else if (c === "<") {
      const end = src.indexOf(">", i);
      push({ hex: src.slice(i + 1, end).replace(/\s+/g, "") });
      i = end + 1;
    } else if (c === "(") {
      let depth = 1;
      let s = "";
      i++;
      while (depth > 0) {
        const ch = src[i++];
        if (ch === "\\") s += src[i++];
        else if (ch === "(") {
          depth++;
          s += ch;
        } else if (ch === ")") {
          depth--;
          if (depth > 0) s += ch;
        } else s += ch;
      }
      push({ literal: s });
    } else if (c === "/") {
      const m = /^\/[^\s/<>[\]()]*/.exec(src.slice(i))!;
      push({ name: m[0].slice(1) });
      i += m[0].length;
    } else {
      const m = /^[^\s/<>[\]()%]+/.exec(src.slice(i))!;
      const word = m[0];
      push(/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word) ? Number(word) : word);
      i += word.length;
    }
  }
  return out;
}

/** A Type 0 font's glyph codes → characters, from its ToUnicode CMap (bfchar and bfrange). */
function toUnicodeOf(doc: PDFDocument, font: PDFDict): Map<string, string> {
  const map = new Map<string, string>();
  const cmap = new TextDecoder("latin1").decode(streamBytes(doc.context.lookup(font.get(PDFName.of("ToUnicode")))));
  const hexText = (h: string) => {
    const units: number[] = [];
    for (let k = 0; k < h.length; k += 4) units.push(parseInt(h.slice(k, k + 4), 16));
    return String.fromCharCode(...units);
  };
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
      map.set(m[1].toUpperCase(), hexText(m[2]));
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const m of block[1].matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
      const from = parseInt(m[1], 16);
      const to = parseInt(m[2], 16);
      const base = parseInt(m[3], 16);
      for (let g = from; g <= to; g++)
        map.set(g.toString(16).toUpperCase().padStart(m[1].length, "0"), String.fromCharCode(base + g - from));
    }
  return map;
}

export interface PageDrawing {
  rects: Rect[];
  texts: TextPiece[];
  width: number;
  height: number;
}

/** What the page draws: rectangles (in page space) and text pieces. */
export function readPage(doc: PDFDocument, page: PDFPage): PageDrawing {
  const tokens = tokenize(pageContent(page));
  const fontDict = page.node.Resources()!.lookupMaybe(PDFName.of("Font"), PDFDict) ?? PDFDict.withContext(doc.context);
  const fonts = new Map<string, { kind: "latin" | "cid"; cmap?: Map<string, string>; visual?: boolean }>();
  for (const [name, ref] of fontDict.entries()) {
    const font = doc.context.lookup(ref, PDFDict);
    const subtype = font.get(PDFName.of("Subtype"))?.toString();
    const cmap = subtype === "/Type0" ? toUnicodeOf(doc, font) : undefined;
    // A Type 0 font with Arabic letters draws its runs in visual order (right to left); an
    // embedded Latin font (the tax documents' PDF/A) draws in reading order.
    const visual = cmap ? [...cmap.values()].some((s) => /[\u0600-\u06ff]/.test(s)) : false;
    fonts.set(name.decodeText(), cmap ? { kind: "cid", cmap, visual } : { kind: "latin" });
  }
  const rects: Rect[] = [];
  const texts: TextPiece[] = [];
  // The graphics state: the transformation (translation and scale only) and line width.
  type State = { a: number; d: number; e: number; f: number; lw: number };
  let gs: State = { a: 1, d: 1, e: 0, f: 0, lw: 1 };
  const saved: State[] = [];
  let path: { x: number; y: number; w: number; h: number }[] = [];
  let font = "";
  let size = 0;
  let piece: TextPiece | null = null;
  let tx = 0;
  let ty = 0;
  let actualText: string | undefined;
  const operands: Token[] = [];
  const show = (s: Token) => {
    if (!piece) throw new Error("text shown outside BT … ET");
    const f = fonts.get(font);
    if (!f) throw new Error(`unknown font ${font}`);
    if (f.kind === "cid") {
      const hex = (s as { hex: string }).hex.toUpperCase();
      for (let k = 0; k < hex.length; k += 4) piece.glyphs.push(f.cmap!.get(hex.slice(k, k + 4)) ?? "\uFFFD");
    } else {
      const bytes =
        typeof s === "object" && "hex" in s
          ? (s.hex.match(/../g) ?? []).map((h) => parseInt(h, 16))
          : [...(s as { literal: string }).literal].map((ch) => ch.charCodeAt(0));
      for (const b of bytes) piece.glyphs.push(String.fromCharCode(b));
    }
  };
  for (const t of tokens) {
    if (typeof t !== "string") {
      operands.push(t);
      continue;
    }
    const n = (k: number) => operands[k] as number;
    switch (t) {
      case "q":
        saved.push({ ...gs });
        break;
      case "Q":
        gs = saved.pop()!;
        break;
      case "cm":
        gs = { ...gs, a: gs.a * n(0), d: gs.d * n(3), e: gs.e + gs.a * n(4), f: gs.f + gs.d * n(5) };
        break;
      case "w":
        gs.lw = n(0);
        break;
      case "re": {
        const [x, y, w, h] = [n(0), n(1), n(2), n(3)];
        path.push({ x: gs.e + gs.a * x, y: gs.f + gs.d * y, w: gs.a * w, h: gs.d * h });
        break;
      }
      case "f":
      case "F":
      case "f*":
      case "S":
      case "s":
      case "B":
      case "B*":
      case "b":
      case "n": {
        const filled = ["f", "F", "f*", "B", "B*", "b"].includes(t);
        const stroked = ["S", "s", "B", "B*", "b"].includes(t);
        for (const r of path) rects.push({ ...r, filled, stroked, lineWidth: gs.lw });
        path = [];
        break;
      }
      case "BDC": {
        const props = operands[1];
        actualText =
          typeof props === "object" && props !== null && "actualText" in props ? props.actualText : undefined;
        break;
      }
      case "EMC":
        actualText = undefined;
        break;
      case "BT":
        piece = null;
        tx = 0;
        ty = 0;
        break;
      case "Tf":
        font = (operands[0] as { name: string }).name;
        size = n(1);
        break;
      case "Tm":
      case "Td":
        tx = t === "Tm" ? n(4) : tx + n(0);
        ty = t === "Tm" ? n(5) : ty + n(1);
        if (!piece) {
          const kind = fonts.get(font)?.kind ?? "latin";
          piece = { kind, font, size, x: gs.e + tx, y: gs.f + ty, text: "", glyphs: [] };
        }
        break;
      case "Tj":
        show(operands[0]);
        break;
      case "TJ":
        for (const item of operands[0] as Token[]) if (typeof item !== "number") show(item);
        break;
      case "ET":
        if (piece) {
          piece.actualText = actualText;
          const visual = fonts.get(piece.font)?.visual ?? false;
          piece.text = actualText ?? (visual ? [...piece.glyphs].reverse() : piece.glyphs).join("");
          texts.push(piece);
        }
        piece = null;
        break;
    }
    operands.length = 0;
  }
  const { width, height } = page.getSize();
  return { rects, texts, width, height };
}

/** Each Code 128 symbol value's modules, 1 for bar and 0 for space (value 106 is the stop, 13 modules). */
// prettier-ignore
const CODE128 = [
  "11011001100", "11001101100", "11001100110", "10010011000", "10010001100", "10001001100",
  "10011001000", "10011000100", "10001100100", "11001001000", "11001000100", "11000100100",
  "10110011100", "10011011100", "10011001110", "10111001100", "10011101100", "10011100110",
  "11001110010", "11001011100", "11001001110", "11011100100", "11001110100", "11101101110",
  "11101001100", "11100101100", "11100100110", "11101100100", "11100110100", "11100110010",
  "11011011000", "11011000110", "11000110110", "10100011000", "10001011000", "10001000110",
  "10110001000", "10001101000", "10001100010", "11010001000", "11000101000", "11000100010",
  "10110111000", "10110001110", "10001101110", "10111011000", "10111000110", "10001110110",
  "11101110110", "11010001110", "11000101110", "11011101000", "11011100010", "11011101110",
  "11101011000", "11101000110", "11100010110", "11101101000", "11101100010", "11100011010",
  "11101111010", "11001000010", "11110001010", "10100110000", "10100001100", "10010110000",
  "10010000110", "10000101100", "10000100110", "10110010000", "10110000100", "10011010000",
  "10011000010", "10000110100", "10000110010", "11000010010", "11001010000", "11110111010",
  "11000010100", "10001111010", "10100111100", "10010111100", "10010011110", "10111100100",
  "10011110100", "10011110010", "11110100100", "11110010100", "11110010010", "11011011110",
  "11011110110", "11110110110", "10101111000", "10100011110", "10001011110", "10111101000",
  "10111100010", "11110101000", "11110100010", "10111011110", "10111101110", "11101011110",
  "11110101110", "11010000100", "11010010000", "11010011100", "1100011101011",
];

export interface Barcode {
  text: string;
  /** The narrowest bar or space, in points. */
  module: number;
  /** The bars' height, in points. */
  height: number;
  /** Where the bars stand: their bottom edge, where they start and end, and the blank room before and after them, in points. */
  bottom: number;
  left: number;
  right: number;
  quietLeft: number;
  quietRight: number;
}

/**
 * Finds the page's barcode, the largest set of filled rectangles sharing one bottom and height,
 * turns the bars' and spaces' widths into modules and decodes them as Code 128 (code sets B and
 * C, the check symbol verified). Throws on anything it cannot read.
 */
export function readCode128(drawing: PageDrawing): Barcode {
  const groups = new Map<string, Rect[]>();
  for (const r of drawing.rects.filter((r) => r.filled && r.w > 0 && r.w < 20 && r.h > 20)) {
    const key = `${r.y.toFixed(2)}:${r.h.toFixed(2)}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const bars = [...groups.values()].sort((a, b) => b.length - a.length)[0]?.sort((a, b) => a.x - b.x);
  if (!bars || bars.length < 10) throw new Error("no barcode on the page");
  const widths: number[] = [];
  bars.forEach((bar, i) => {
    if (i > 0) widths.push(bar.x - (bars[i - 1].x + bars[i - 1].w));
    widths.push(bar.w);
  });
  if (widths.some((w) => w <= 0.01)) throw new Error("bars overlap or touch");
  const module = Math.min(...widths);
  const modules = widths.map((w) => {
    const m = w / module;
    if (Math.abs(m - Math.round(m)) > 0.1) throw new Error(`a width of ${m.toFixed(2)} modules`);
    return Math.round(m);
  });
  const bits = modules.map((m, i) => (i % 2 === 0 ? "1" : "0").repeat(m)).join("");
  if ((bits.length - 13) % 11 !== 0 || !bits.endsWith(CODE128[106])) throw new Error(`not a Code 128 symbol: ${bits}`);
  const values: number[] = [];
  for (let k = 0; k < bits.length - 13; k += 11) {
    const v = CODE128.indexOf(bits.slice(k, k + 11));
    if (v < 0 || v > 105) throw new Error(`unknown symbol ${bits.slice(k, k + 11)}`);
    values.push(v);
  }
  const [start, ...rest] = values;
  const check = rest.pop()!;
  const sum = [start, ...rest].reduce((s, v, k) => s + v * (k === 0 ? 1 : k), 0);
  if (sum % 103 !== check) throw new Error(`check symbol ${check}, expected ${sum % 103}`);
  let set = start === 103 ? "A" : start === 104 ? "B" : start === 105 ? "C" : null;
  if (!set) throw new Error(`no start symbol: ${start}`);
  let text = "";
  for (const v of rest) {
    if (set === "C") {
      if (v < 100) text += String(v).padStart(2, "0");
      else if (v === 100) set = "B";
      else if (v === 101) set = "A";
      else throw new Error(`symbol ${v} in code set C`);
    } else {
      if (v < 96) text += String.fromCharCode(set === "A" && v >= 64 ? v - 64 : v + 32);
      else if (v === 99) set = "C";
      else if (v === 100) set = "B";
      else if (v === 101) set = "A";
      else throw new Error(`symbol ${v} in code set ${set}`);
    }
  }
  const left = bars[0].x;
  const right = bars.at(-1)!.x + bars.at(-1)!.w;
  const bottom = bars[0].y;
  const top = bottom + bars[0].h;
  // The blank room beside the bars: to the page's edge or the nearest other mark in their band.
  const others = [
    ...drawing.rects.filter((r) => !bars.includes(r) && r.y < top && r.y + r.h > bottom),
    ...drawing.texts.filter((t) => t.y < top && t.y + t.size > bottom).map((t) => ({ x: t.x, w: 0 })),
  ];
  const quietLeft = Math.min(left, ...others.filter((o) => o.x + o.w <= left).map((o) => left - (o.x + o.w)));
  const quietRight = Math.min(drawing.width - right, ...others.filter((o) => o.x >= right).map((o) => o.x - right));
  return { text, module, height: bars[0].h, bottom, left, right, quietLeft, quietRight };
}
