/**
 * The printable shipping documents of the console, as PDF bytes: the parcel labels (one page per
 * parcel, A6 or 4×6 inch, for a thermal label printer), the day's pick list and the carrier's
 * manifest (A4). Pure functions of their input; they run in the Workers runtime (pdf-lib and
 * fontkit, and the Arabic font compiled in from label-font.ts).
 *
 * The text layer: Latin text is Helvetica (WinAnsi strings in the content stream, searchable and
 * copyable), Arabic text the embedded Noto Sans Arabic subset, whose ToUnicode map gives each
 * drawn glyph back its letters; the labels' metadata (keywords) also lists the waybills.
 */
import {
  PDFDocument,
  type PDFPage,
  type RGB,
  endPath,
  fill,
  fillAndStroke,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingColor,
  setLineWidth,
  setStrokingColor,
  stroke,
} from "pdf-lib";
import { type MessageKey, msg } from "../../messages";
import type { CarrierAddress } from "./carrier.ts";
import { QUIET_ZONE_MODULES, code128Widths } from "./code128.ts";
import { BLACK, type TextStyle, Typesetter, directionOf, embedFonts } from "./pdf-text.ts";

export interface LabelParcel {
  /** Printed as a Code 128 barcode and in digits under it. */
  waybill: string;
  carrier: { en: string; ar: string };
  /** The shop's parcel reference: "1042-1". */
  reference: string;
  order_number: string;
  /** "Parcel 1 of 2". */
  parcel: number;
  parcels: number;
  shipper: CarrierAddress;
  consignee: CarrierAddress;
  weight_grams: number;
  /** Halalas the courier collects; 0 = prepaid. */
  cod_amount: number;
  /** YYYY-MM-DD. */
  shipped_on: string;
}

export interface PickLine {
  sku: string;
  name: { en: string; ar: string };
  quantity: number;
  orders: string[];
}

export interface ManifestRow {
  waybill: string;
  order_number: string;
  city: string;
  parcels: number;
  weight_grams: number;
  /** Halalas; 0 = prepaid. */
  cod_amount: number;
}

const MM = 72 / 25.4;
/** Page sizes in points: A6 is 105 × 148 mm, the other 4 × 6 inches. */
export const LABEL_SIZES = { a6: [105 * MM, 148 * MM], "4x6": [4 * 72, 6 * 72] } as const;
const A4: [number, number] = [210 * MM, 297 * MM];
/** A thermal printer's dot at 203 dpi: the barcode's module is a whole number of them, so every bar prints the same width. */
const DOT = 72 / 203;
const GREY = rgb(0.35, 0.35, 0.35);
const LIGHT = rgb(0.9, 0.9, 0.9);

/** Halalas as "189.00". */
export function money(halalas: number): string {
  if (!Number.isSafeInteger(halalas)) throw new RangeError(`money: ${halalas} is not a whole number of halalas`);
  const sign = halalas < 0 ? "-" : "";
  const abs = Math.abs(halalas);
  const riyals = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${riyals}.${String(abs % 100).padStart(2, "0")}`;
}

/** Grams as kilograms, "1.25" (to the nearest 10 g, at least one decimal: "0.5", "2.0"). */
export function kilograms(grams: number): string {
  const tens = Math.round(grams / 10);
  const kg = Math.floor(tens / 100);
  const rest = tens % 100;
  return rest === 0 ? `${kg}.0` : rest % 10 === 0 ? `${kg}.${rest / 10}` : `${kg}.${String(rest).padStart(2, "0")}`;
}

/** The COD amount's two lines, or the prepaid line; what a label and the tests read. */
export function codLines(cod: number): { en: string; ar: string } | null {
  if (cod <= 0) return null;
  return msg("shipping.labels.collect", { amount: money(cod) });
}
/** "Prepaid / مدفوع مسبقًا". */
export function prepaidLine(): string {
  const m = msg("shipping.labels.prepaid");
  return `${m.en} / ${m.ar}`;
}

/** A message's English and Arabic, with its placeholders filled. */
const both = (key: MessageKey, params?: Record<string, string | number>) => msg(key, params);

/** Draws a rectangle (`re`), filled, stroked or both, as one path a reader of the page can find. */
function box(
  page: PDFPage,
  x: number,
  y: number,
  w: number,
  h: number,
  opts: { fill?: RGB; border?: RGB; borderWidth?: number },
) {
  const outlined = opts.border && (opts.borderWidth ?? 0) > 0;
  const ops = [pushGraphicsState()];
  if (opts.fill) ops.push(setFillingColor(opts.fill));
  if (outlined) ops.push(setStrokingColor(opts.border!), setLineWidth(opts.borderWidth!));
  ops.push(rectangle(x, y, w, h));
  ops.push(opts.fill && outlined ? fillAndStroke() : opts.fill ? fill() : outlined ? stroke() : endPath());
  ops.push(popGraphicsState());
  page.pushOperators(...ops);
}

function hline(page: PDFPage, x1: number, x2: number, y: number, thickness = 0.75, color: RGB = BLACK) {
  page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, thickness, color });
}

/**
 * Draws `data` as a Code 128 symbol whose bars (quiet zones included) fit `maxWidth`, centred on
 * `cx`, bars from `y` up `height`. The bars are filled rectangles in one path (`re` … `f`), in
 * whole printer dots where they fit. Returns the symbol's width with its quiet zones.
 */
export function drawBarcode(
  page: PDFPage,
  data: string,
  cx: number,
  y: number,
  maxWidth: number,
  height: number,
): number {
  const widths = code128Widths(data);
  const modules = widths.reduce((a, b) => a + b, 0) + 2 * QUIET_ZONE_MODULES;
  // 0.5 mm modules at most (4 dots), 0.25 mm (2 dots) at least where they fit, else what fits.
  let module = maxWidth / modules;
  for (const dots of [4, 3, 2]) {
    if (dots * DOT * modules <= maxWidth) {
      module = dots * DOT;
      break;
    }
  }
  const total = modules * module;
  let x = cx - total / 2 + QUIET_ZONE_MODULES * module;
  const ops = [pushGraphicsState(), setFillingColor(BLACK)];
  widths.forEach((w, i) => {
    if (i % 2 === 0) ops.push(rectangle(x, y, w * module, height));
    x += w * module;
  });
  ops.push(fill(), popGraphicsState());
  page.pushOperators(...ops);
  return total;
}

/** Parts of an address joined with commas, Arabic ones with the Arabic comma. */
function joinParts(parts: (string | null | undefined)[]): string {
  const kept = parts.filter((s): s is string => !!s && s.trim() !== "");
  return kept.join(directionOf(kept.join(" ")) === "rtl" ? "، " : ", ");
}

/** An address's lines as a label prints them. */
function addressLines(a: CarrierAddress): {
  street: string[];
  place: string;
  national: [caption: { en: string; ar: string }, value: string][];
} {
  const street = [a.line1, a.line2].filter((s): s is string => !!s && s.trim() !== "");
  const place = joinParts([a.district, a.city, a.postal_code]);
  const national: [{ en: string; ar: string }, string][] = [];
  if (a.short_address) national.push([both("shipping.labels.shortAddress"), a.short_address]);
  if (a.building_number) national.push([both("shipping.labels.building"), a.building_number]);
  if (a.postal_code) national.push([both("shipping.labels.postalCode"), a.postal_code]);
  if (a.additional_number) national.push([both("shipping.labels.additionalNumber"), a.additional_number]);
  return { street, place, national };
}

/** One label page. */
function drawLabel(page: PDFPage, ts: Typesetter, p: LabelParcel) {
  const { width: W, height: H } = page.getSize();
  const m = 3 * MM;
  const left = m;
  const right = W - m;
  const inner = right - left;
  let y = H - m;

  // The carrier, English at the left and Arabic at the right; the date under the Arabic.
  const head: TextStyle = { size: 14, bold: true };
  ts.draw(page, ts.fit(p.carrier.en, head, inner / 2 - 4), left, y - 13, head, "left");
  ts.draw(page, ts.fit(p.carrier.ar, head, inner / 2 - 4), right, y - 14, head, "right", "rtl");
  y -= 20;
  hline(page, left, right, y, 1.5);

  // The waybill barcode, and its number under it.
  const barHeight = 18 * MM;
  y -= 4 + barHeight;
  drawBarcode(page, p.waybill, W / 2, y, inner, barHeight);
  const digits: TextStyle = { size: 12, bold: true };
  y -= 13;
  const spaced = p.waybill.split("").join(" ");
  ts.draw(page, ts.width(spaced, digits) <= inner ? spaced : p.waybill, W / 2, y, digits, "center", "ltr");
  y -= 6;
  hline(page, left, right, y, 1.5);

  // Order, reference and "Parcel k of n".
  const small: TextStyle = { size: 7, color: GREY };
  y -= 10;
  const order = both("shipping.labels.order");
  const parcelWord = both("shipping.labels.parcel");
  ts.draw(page, `${order.en} / ${order.ar}`, left, y, small, "left", "ltr");
  ts.draw(page, `${parcelWord.en} / ${parcelWord.ar}`, right, y, small, "right", "ltr");
  y -= 14;
  ts.draw(page, p.order_number, left, y, { size: 13, bold: true }, "left", "ltr");
  const ref = ts.width(p.order_number, { size: 13, bold: true });
  ts.draw(
    page,
    both("shipping.labels.reference", { reference: p.reference }).en,
    left + ref + 8,
    y,
    { size: 8 },
    "left",
    "ltr",
  );
  const parcelOf = both("shipping.labels.parcelOf", { parcel: p.parcel, parcels: p.parcels });
  ts.draw(page, parcelOf.en, right, y, { size: 13, bold: true }, "right", "ltr");
  y -= 10;
  ts.draw(page, parcelOf.ar, right, y, { size: 8 }, "right", "rtl");
  y -= 4;
  hline(page, left, right, y);

  // The bottom: the weight and date row, then the cash-on-delivery box (or prepaid) at the foot.
  const cod = codLines(p.cod_amount);
  const codHeight = cod ? 40 : 24;
  const codY = m;
  const metaY = codY + codHeight + 6;
  hline(page, left, right, metaY + 16);
  const weight = both("shipping.labels.weight", { kg: kilograms(p.weight_grams) });
  ts.draw(page, weight.en, left, metaY + 5, { size: 9, bold: true }, "left", "ltr");
  ts.draw(page, weight.ar, left + inner * 0.3, metaY + 5, { size: 8 }, "left", "rtl");
  ts.draw(
    page,
    both("shipping.labels.date", { day: p.shipped_on }).en,
    right,
    metaY + 5,
    { size: 9, bold: true },
    "right",
    "ltr",
  );
  if (cod) {
    box(page, left, codY, inner, codHeight, { fill: LIGHT, border: BLACK, borderWidth: 2.5 });
    const en: TextStyle = { size: 13, bold: true };
    const ar: TextStyle = { size: 13, bold: true };
    ts.draw(
      page,
      cod.en,
      W / 2,
      codY + codHeight - 16,
      { ...en, size: ts.sizeToFit(cod.en, en, inner - 8, 8) },
      "center",
      "ltr",
    );
    ts.draw(page, cod.ar, W / 2, codY + 8, { ...ar, size: ts.sizeToFit(cod.ar, ar, inner - 8, 8) }, "center", "rtl");
  } else {
    box(page, left, codY, inner, codHeight, { border: BLACK, borderWidth: 1 });
    ts.draw(page, prepaidLine(), W / 2, codY + 8, { size: 12, bold: true }, "center", "ltr");
  }

  // From, compact, above the weight row; To takes the space between.
  const from = p.shipper;
  const fromA = addressLines(from);
  const fromStyle: TextStyle = { size: 7 };
  const fromLines = [
    `${from.name}  ${from.phone}`,
    joinParts([...fromA.street, fromA.place]),
    fromA.national
      .filter(([, v]) => v !== from.postal_code)
      .map(([k, v]) => `${k.en} ${v}`)
      .join("  ·  "),
  ].filter((s) => s.trim() !== "");
  const fromX = left + 24;
  const fromWrapped = fromLines.flatMap((l, i) =>
    ts.wrap(l, { ...fromStyle, bold: i === 0 }, right - fromX, 2).map((text) => ({ text, bold: i === 0 })),
  );
  const fromBottom = metaY + 16;
  const fromTop = fromBottom + fromWrapped.length * 8.5 + 5;
  hline(page, left, right, fromTop);
  const fromWord = both("shipping.labels.from");
  ts.draw(page, fromWord.en, left, fromTop - 8, { size: 6.5, bold: true }, "left", "ltr");
  ts.draw(page, fromWord.ar, left, fromTop - 16.5, { size: 6.5, bold: true }, "left", "rtl");
  fromWrapped.forEach(({ text, bold }, i) => {
    const dir = directionOf(text);
    ts.draw(
      page,
      text,
      dir === "rtl" ? right : fromX,
      fromTop - 8 - i * 8.5,
      { ...fromStyle, bold },
      dir === "rtl" ? "right" : "left",
      dir,
    );
  });

  // To: the consignee, large, with the national address's parts in cells.
  const to = p.consignee;
  const toA = addressLines(to);
  y -= 10;
  const toWord = both("shipping.labels.to");
  ts.draw(page, `${toWord.en} / ${toWord.ar}`, left, y, { size: 8, bold: true }, "left", "ltr");
  y -= 17;
  const nameStyle: TextStyle = { size: 15, bold: true };
  const alignOf = (s: string) => (directionOf(s) === "rtl" ? ([right, "right"] as const) : ([left, "left"] as const));
  ts.wrap(to.name, nameStyle, inner, 2).forEach((line, i) => {
    if (i > 0) y -= 16;
    const [nameX, nameAlign] = alignOf(line);
    ts.draw(page, line, nameX, y, nameStyle, nameAlign);
  });
  y -= 15;
  ts.draw(page, to.phone, left, y, { size: 11, bold: true }, "left", "ltr");
  const cellsHeight = toA.national.length ? 26 : 0;
  const bodyStyle: TextStyle = { size: 11.5 };
  const lineGap = 14;
  const linesRoom = Math.max(1, Math.floor((y - 4 - (fromTop + cellsHeight + 4)) / lineGap));
  // The street lines, then district, city and postal code in bold, as many as the room takes.
  const body = [
    ...toA.street.flatMap((s) => ts.wrap(s, bodyStyle, inner)).map((text) => ({ text, bold: false })),
    ...ts.wrap(toA.place, { ...bodyStyle, bold: true }, inner).map((text) => ({ text, bold: true })),
  ];
  for (const { text, bold } of body.slice(0, linesRoom)) {
    y -= lineGap;
    const [ax, al] = alignOf(text);
    ts.draw(page, text, ax, y, { ...bodyStyle, bold }, al);
  }
  if (toA.national.length) {
    const cellW = inner / toA.national.length;
    const top = fromTop + cellsHeight + 4;
    toA.national.forEach(([caption, value], i) => {
      const cx = left + i * cellW;
      box(page, cx, top - cellsHeight, cellW, cellsHeight, { border: BLACK, borderWidth: 0.75 });
      const { en, ar } = caption;
      // Both captions on one line, smaller where the cell is narrow.
      const cap: TextStyle = { size: 5.5, color: GREY };
      const capSize = ts.sizeToFit(`${en}  ${ar}`, cap, cellW - 5, 3.5);
      ts.draw(page, en, cx + 2.5, top - 7, { ...cap, size: capSize }, "left", "ltr");
      ts.draw(page, ar, cx + cellW - 2.5, top - 7, { ...cap, size: capSize }, "right", "rtl");
      const vs: TextStyle = { size: 11, bold: true };
      ts.draw(
        page,
        value,
        cx + cellW / 2,
        top - 21,
        { ...vs, size: ts.sizeToFit(value, vs, cellW - 4, 6) },
        "center",
        "ltr",
      );
    });
  }
}

/** The labels: one page per parcel, A6 or 4×6 inch (at least one parcel). */
export async function labelsPdf(parcels: LabelParcel[], size: "a6" | "4x6"): Promise<Uint8Array> {
  // A PDF needs a page; an empty label run is the caller's mistake, not a blank label to print.
  if (parcels.length === 0) throw new RangeError("labelsPdf: no parcels");
  const doc = await PDFDocument.create();
  const fonts = await embedFonts(doc);
  const ts = new Typesetter(fonts);
  const [w, h] = LABEL_SIZES[size];
  for (const parcel of parcels) drawLabel(doc.addPage([w, h]), ts, parcel);
  doc.setTitle(both("shipping.labels.title", { count: parcels.length }).en);
  doc.setKeywords(parcels.map((p) => p.waybill));
  doc.setCreator("Souq console");
  doc.setProducer("Souq console");
  return doc.save();
}

/** A table's column: its header in both languages, width share, alignment and cell text. */
interface Column<T> {
  head: { en: string; ar: string };
  width: number;
  align: "left" | "right" | "center";
  cell: (row: T, index: number) => string;
  bold?: boolean;
  /** Wrap the cell's text onto more lines instead of cutting it. */
  wrap?: boolean;
}

/**
 * Lays out a bilingual A4 document: a title block on each page, a table paginated under it with
 * its header repeated, `totals` after the last row, `foot` at the end, and "Page k of n".
 */
async function tableDocument<T>(opts: {
  title: { en: string; ar: string };
  subtitle: string[];
  columns: Column<T>[];
  rows: T[];
  totals: string[];
  foot?: (page: PDFPage, ts: Typesetter, y: number, left: number, right: number) => void;
  landscape?: boolean;
  rowLines?: (row: T) => string[];
}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const ts = new Typesetter(await embedFonts(doc));
  const [pw, ph] = opts.landscape ? [A4[1], A4[0]] : A4;
  const m = 14 * MM;
  const left = m;
  const right = pw - m;
  const inner = right - left;
  const share = opts.columns.reduce((s, c) => s + c.width, 0);
  const widths = opts.columns.map((c) => (c.width / share) * inner);
  const xs = widths.map((_, i) => left + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const cellStyle: TextStyle = { size: 9 };
  const pages: PDFPage[] = [];

  const newPage = () => {
    const page = doc.addPage([pw, ph]);
    pages.push(page);
    let y = ph - m;
    ts.draw(page, opts.title.en, left, y - 16, { size: 18, bold: true }, "left", "ltr");
    ts.draw(page, opts.title.ar, right, y - 16, { size: 18, bold: true }, "right", "rtl");
    y -= 24;
    for (const line of opts.subtitle) {
      y -= 13;
      ts.draw(page, line, left, y, { size: 10 }, "left", directionOf(line, "ltr"));
    }
    y -= 10;
    // The header row: English over Arabic.
    box(page, left, y - 24, inner, 24, { fill: LIGHT });
    opts.columns.forEach((c, i) => {
      const ax = c.align === "left" ? xs[i] + 3 : c.align === "right" ? xs[i] + widths[i] - 3 : xs[i] + widths[i] / 2;
      ts.draw(page, c.head.en, ax, y - 10, { size: 8, bold: true }, c.align, "ltr");
      ts.draw(page, c.head.ar, ax, y - 20, { size: 7.5 }, c.align, "rtl");
    });
    return { page, y: y - 24 };
  };

  let { page, y } = newPage();
  const bottom = m + 20;
  const drawRow = (cells: string[], bold: boolean, extra: string[][]) => {
    // Each cell's lines: its text (wrapped in a wrapping column, else cut to fit), then its extra lines.
    const cellLines = opts.columns.map((c, i) => {
      const st: TextStyle = { ...cellStyle, bold: bold || !!c.bold };
      const first = c.wrap ? ts.wrap(cells[i], st, widths[i] - 6, 12) : [cells[i]];
      return [...first, ...(extra[i] ?? [])];
    });
    const lineCount = Math.max(1, ...cellLines.map((l) => l.length));
    const height = 6 + lineCount * 11;
    if (y - height < bottom) ({ page, y } = newPage());
    opts.columns.forEach((c, i) => {
      const ax = c.align === "left" ? xs[i] + 3 : c.align === "right" ? xs[i] + widths[i] - 3 : xs[i] + widths[i] / 2;
      const wrapped = c.wrap ? cellLines[i].length - (extra[i]?.length ?? 0) : 1;
      cellLines[i].forEach((text, k) => {
        const st: TextStyle = { ...cellStyle, bold: bold || (k < wrapped && !!c.bold) };
        const t = ts.fit(text, st, widths[i] - 6);
        const dir = directionOf(t);
        // An Arabic line in a left-aligned column sits at the column's right edge.
        const [x, al] = dir === "rtl" && c.align === "left" ? [xs[i] + widths[i] - 3, "right" as const] : [ax, c.align];
        ts.draw(page, t, x, y - 12 - k * 11, st, al, dir);
      });
    });
    y -= height;
    hline(page, left, right, y, 0.4, GREY);
  };
  opts.rows.forEach((row, index) => {
    const cells = opts.columns.map((c) => c.cell(row, index));
    const more = opts.rowLines ? opts.rowLines(row) : [];
    drawRow(
      cells,
      false,
      opts.columns.map((_, i) => (i === 1 ? more : [])),
    );
  });
  if (y - 30 < bottom) ({ page, y } = newPage());
  hline(page, left, right, y, 1.2);
  drawRow(opts.totals, true, []);
  opts.foot?.(page, ts, y, left, right);
  pages.forEach((pg, i) => {
    ts.draw(
      pg,
      both("shipping.page", { page: i + 1, pages: pages.length }).en,
      right,
      m,
      { size: 8, color: GREY },
      "right",
      "ltr",
    );
  });
  doc.setTitle(opts.title.en);
  doc.setCreator("Souq console");
  doc.setProducer("Souq console");
  return doc.save();
}

/** The day's pick list: each SKU once, with its quantity and the orders it goes to, and the totals. */
export async function pickListPdf(input: { day: string; lines: PickLine[] }): Promise<Uint8Array> {
  const lines = [...input.lines].sort((a, b) => a.sku.localeCompare(b.sku));
  const units = lines.reduce((s, l) => s + l.quantity, 0);
  const orders = new Set(lines.flatMap((l) => l.orders)).size;
  const skus = lines.length;
  return tableDocument<PickLine>({
    title: both("shipping.pickList.title"),
    subtitle: [
      both("shipping.pickList.day", { day: input.day }).en,
      both("shipping.pickList.summary", { skus, units, orders }).en,
    ],
    columns: [
      { head: both("shipping.pickList.sku"), width: 18, align: "left", cell: (l) => l.sku, bold: true, wrap: true },
      { head: both("shipping.pickList.item"), width: 42, align: "left", cell: (l) => l.name.en, wrap: true },
      {
        head: both("shipping.pickList.quantity"),
        width: 8,
        align: "right",
        cell: (l) => String(l.quantity),
        bold: true,
      },
      {
        head: both("shipping.pickList.orders"),
        width: 26,
        align: "left",
        cell: (l) => l.orders.join(", "),
        wrap: true,
      },
      { head: both("shipping.pickList.picked"), width: 8, align: "center", cell: () => "[   ]" },
    ],
    rows: lines,
    rowLines: (l) => [l.name.ar],
    totals: [
      both("shipping.pickList.total").en,
      both("shipping.pickList.skus", { skus }).en,
      String(units),
      both("shipping.pickList.orderCount", { orders }).en,
      "",
    ],
  });
}

/** The carrier's manifest for a day: one row per shipment, the totals, and the hand-over signatures. */
export async function manifestPdf(input: {
  day: string;
  carrier: { en: string; ar: string };
  shop: string;
  rows: ManifestRow[];
}): Promise<Uint8Array> {
  const count = input.rows.length;
  const parcels = input.rows.reduce((s, r) => s + r.parcels, 0);
  const grams = input.rows.reduce((s, r) => s + r.weight_grams, 0);
  const cod = input.rows.reduce((s, r) => s + r.cod_amount, 0);
  const codCount = input.rows.filter((r) => r.cod_amount > 0).length;
  const prepaid = both("shipping.manifest.prepaid").en;
  return tableDocument<ManifestRow>({
    title: both("shipping.manifest.title"),
    subtitle: [
      input.shop,
      `${both("shipping.manifest.carrier").en} ${input.carrier.en} / ${input.carrier.ar}`,
      both("shipping.manifest.day", { day: input.day }).en,
    ],
    columns: [
      { head: both("shipping.manifest.number"), width: 5, align: "right", cell: (_, i) => String(i + 1) },
      { head: both("shipping.manifest.waybill"), width: 22, align: "left", cell: (r) => r.waybill, bold: true },
      { head: both("shipping.manifest.order"), width: 12, align: "left", cell: (r) => r.order_number },
      { head: both("shipping.manifest.city"), width: 20, align: "left", cell: (r) => r.city },
      { head: both("shipping.manifest.parcels"), width: 9, align: "right", cell: (r) => String(r.parcels) },
      { head: both("shipping.manifest.weight"), width: 12, align: "right", cell: (r) => kilograms(r.weight_grams) },
      {
        head: both("shipping.manifest.cod"),
        width: 14,
        align: "right",
        cell: (r) => (r.cod_amount > 0 ? money(r.cod_amount) : prepaid),
      },
    ],
    rows: input.rows,
    totals: ["", both("shipping.manifest.total", { count }).en, "", "", String(parcels), kilograms(grams), money(cod)],
    foot: (page, ts, y, left, right) => {
      const half = (right - left) / 2;
      let yy = y - 28;
      const summary = both("shipping.manifest.codSummary", { cod: codCount, count, amount: money(cod) }).en;
      ts.draw(page, summary, left, yy, { size: 9 }, "left", "ltr");
      yy -= 40;
      const signature = both("shipping.manifest.signature").en;
      [both("shipping.manifest.handedOver"), both("shipping.manifest.receivedBy")].forEach((who, i) => {
        const x = left + i * half;
        hline(page, x, x + half - 20, yy, 0.6);
        ts.draw(page, who.en, x, yy - 10, { size: 8 }, "left", "ltr");
        ts.draw(page, who.ar, x + half - 20, yy - 10, { size: 8 }, "right", "rtl");
        ts.draw(page, signature, x, yy - 20, { size: 7, color: GREY }, "left", "ltr");
      });
    },
  });
}
