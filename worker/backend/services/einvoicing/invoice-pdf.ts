/**
 * The shopper's PDF copy of a tax document (a simplified or standard tax invoice, a credit or a
 * debit note): one A4 page or more in the shopper's language, with each label in the other
 * language too, and the document's signed XML embedded, as PDF/A-3 (conformance B) requires of an
 * e-invoice's human-readable copy. Runs in the Workers runtime (pdf-lib and fontkit); the PDF route
 * imports it lazily, so the fonts compiled in stay out of every other request's code.
 *
 * What makes the file PDF/A-3b, beyond pdf-lib's defaults: every font embedded (the Latin one
 * too: invoice-font.ts), an sRGB OutputIntent with its ICC profile (srgb-icc.ts), XMP metadata
 * that repeats the Info dictionary, a document ID in the trailer, and the XML as an associated
 * file (the catalog's /AF and the EmbeddedFiles name tree; pdf-lib's attach writes both, with the
 * MIME subtype, the dates and the relationship it is given). No encryption, script, annotation,
 * image or transparency is ever written.
 */
import {
  AFRelationship,
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFPage,
  PDFString,
  type RGB,
  fill,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingColor,
} from "pdf-lib";
import { encode } from "uqr";
import type { TaxDocument } from "../../../../contract/invoices";
import { type MessageKey, msg } from "../../messages";
import { type Direction, type TextStyle, Typesetter, directionOf, embedFonts } from "../shipping/pdf-text.ts";
import { NOTO_SANS_LATIN_BOLD, NOTO_SANS_LATIN_REGULAR } from "./invoice-font.ts";
import { srgbIccProfile } from "./srgb-icc.ts";

type Lang = "en" | "ar";

/**
 * The document as this module reads it: the contract's, with the fields phase 2 adds read where
 * present (a debit note; a business buyer's VAT number and company, which make an invoice a
 * standard one).
 */
export type PdfTaxDocument = TaxDocument;

export interface TaxDocumentPdfInput {
  document: PdfTaxDocument;
  /** The signed UBL XML, embedded byte for byte (UTF-8). */
  xml: string;
  xmlFileName: string;
  /** ZATCA's QR payload: base64 of the TLV fields. */
  qr: string;
  lang: Lang;
}

const MM = 72 / 25.4;
const PAGE_W = 210 * MM;
const PAGE_H = 297 * MM;
const MARGIN = 40;
const CONTENT_W = PAGE_W - 2 * MARGIN;
/** Room kept at the bottom for the footer. */
const FOOTER_H = 34;
const QR_SIZE = 112;
const GREY = rgb(0.38, 0.38, 0.38);
const RULE = rgb(0.75, 0.75, 0.75);
const SHADE = rgb(0.94, 0.94, 0.94);
const BLACK = rgb(0, 0, 0);
const PRODUCER = "Souq Edge";
/** Saudi Arabia keeps UTC+3 all year. */
const RIYADH_OFFSET_MS = 3 * 3600 * 1000;

/** Halalas as "1,234.50". */
export function riyals(halalas: number): string {
  if (!Number.isSafeInteger(halalas)) throw new RangeError(`riyals: ${halalas} is not a whole number of halalas`);
  const sign = halalas < 0 ? "-" : "";
  const abs = Math.abs(halalas);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}${whole}.${String(abs % 100).padStart(2, "0")}`;
}

/** The moment of issue in Riyadh's time, as "YYYY-MM-DD HH:MM". */
export function riyadhTime(iso: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  return new Date(ms + RIYADH_OFFSET_MS).toISOString().slice(0, 16).replace("T", " ");
}

/** The document's title key: a standard invoice is one made out to a VAT-registered buyer. */
function titleKey(doc: PdfTaxDocument): MessageKey {
  if (doc.kind === "credit_note") return "einvoicing.pdf.creditNote";
  if (doc.kind === "debit_note") return "einvoicing.pdf.debitNote";
  return doc.transaction === "standard" ? "einvoicing.pdf.taxInvoice" : "einvoicing.pdf.simplifiedInvoice";
}

/**
 * Places text on the page by its distance from the leading edge (the left for English, the right
 * for Arabic), so one layout serves both directions.
 */
class Sheet {
  readonly dir: Direction;
  readonly other: Lang;
  constructor(
    readonly ts: Typesetter,
    readonly lang: Lang,
  ) {
    this.dir = lang === "ar" ? "rtl" : "ltr";
    this.other = lang === "ar" ? "en" : "ar";
  }

  /** The page's x of a point `s` from the leading margin. */
  x(s: number): number {
    return this.dir === "rtl" ? PAGE_W - MARGIN - s : MARGIN + s;
  }

  /** The physical x of a box `width` wide that starts `s` from the leading margin: its left edge. */
  left(s: number, width: number): number {
    return this.dir === "rtl" ? PAGE_W - MARGIN - s - width : MARGIN + s;
  }

  /** A message in the shopper's language and in the other. */
  say(key: MessageKey, params?: Record<string, string | number>): { lead: string; other: string } {
    const m = msg(key, params);
    return { lead: m[this.lang], other: m[this.other] };
  }

  /**
   * Draws `text` starting (or, with `end`, ending) `s` from the leading margin, in its own
   * direction or else (no letter in it) `fallback`'s. Returns its width.
   */
  text(page: PDFPage, text: string, s: number, y: number, style: TextStyle, end = false, fallback = this.dir): number {
    if (!text) return 0;
    const startAlign = this.dir === "rtl" ? "right" : "left";
    const endAlign = this.dir === "rtl" ? "left" : "right";
    return this.ts.draw(page, text, this.x(s), y, style, end ? endAlign : startAlign, directionOf(text, fallback));
  }

  /** A value without letters (a date, a number) reads left to right in either language. */
  value(page: PDFPage, text: string, s: number, y: number, style: TextStyle): number {
    return this.text(page, text, s, y, style, false, "ltr");
  }

  /** Draws `text` flush to the page's right at `right` (numbers line up by their last digit in both directions). */
  number(page: PDFPage, text: string, right: number, y: number, style: TextStyle) {
    this.ts.draw(page, text, right, y, style, "right", "ltr");
  }

  /**
   * A label in both languages on one line: the shopper's in bold, then the other's, smaller and
   * grey. Returns the width taken.
   */
  label(page: PDFPage, key: MessageKey, s: number, y: number, size: number, params?: Record<string, string | number>) {
    const { lead, other } = this.say(key, params);
    const w = this.text(page, lead, s, y, { size, bold: true });
    return w + 6 + this.text(page, other, s + w + 6, y, { size: size - 1, color: GREY });
  }

  /** Wraps `text` to `width` and draws its lines from `y` down; returns the y under the last line. */
  paragraph(page: PDFPage, text: string, s: number, y: number, width: number, style: TextStyle, maxLines = 4) {
    const lines = this.ts.wrap(text, style, width, maxLines);
    for (const line of lines) {
      this.text(page, line, s, y, style);
      y -= style.size * 1.3;
    }
    return y;
  }
}

function fillRect(page: PDFPage, x: number, y: number, w: number, h: number, color: RGB) {
  page.pushOperators(pushGraphicsState(), setFillingColor(color), rectangle(x, y, w, h), fill(), popGraphicsState());
}

function rule(page: PDFPage, x1: number, x2: number, y: number, thickness = 0.5, color: RGB = RULE) {
  page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, thickness, color });
}

/**
 * Draws the QR code of `payload` as filled rectangles (one per run of dark modules in a row, all
 * in one path), `size` points square with its top left corner at (`x`, `top`). The page around it
 * is left blank for the quiet zone.
 */
export function drawQr(page: PDFPage, payload: string, x: number, top: number, size: number) {
  const qr = encode(payload, { ecc: "M", border: 0 });
  const module = size / qr.size;
  const ops = [pushGraphicsState(), setFillingColor(BLACK)];
  qr.data.forEach((row, r) => {
    for (let c = 0; c < row.length; c++) {
      if (!row[c]) continue;
      let end = c;
      while (end + 1 < row.length && row[end + 1]) end++;
      ops.push(rectangle(x + c * module, top - (r + 1) * module, (end - c + 1) * module, module));
      c = end;
    }
  });
  ops.push(fill(), popGraphicsState());
  page.pushOperators(...ops);
}

/** The lines table's columns: start offset and width from the leading margin; numbers are right-aligned. */
const COLUMNS = (() => {
  const widths = { qty: 40, unit: 104, vat: 62, total: 92 };
  const item = CONTENT_W - widths.qty - widths.unit - widths.vat - widths.total;
  let s = 0;
  const col = (w: number) => {
    const c = { s, w };
    s += w;
    return c;
  };
  return {
    item: col(item),
    qty: col(widths.qty),
    unit: col(widths.unit),
    vat: col(widths.vat),
    total: col(widths.total),
  };
})();
const CELL_PAD = 5;

/** Renders the document; see the module's comment. */
export async function taxDocumentPdf(input: TaxDocumentPdfInput): Promise<Uint8Array> {
  const { document: doc, xml, xmlFileName, qr, lang } = input;
  const pdf = await PDFDocument.create({ updateMetadata: false });
  const fonts = await embedFonts(pdf, {
    regular: fromBase64(NOTO_SANS_LATIN_REGULAR),
    bold: fromBase64(NOTO_SANS_LATIN_BOLD),
  });
  const sheet = new Sheet(new Typesetter(fonts), lang);
  const title = sheet.say(titleKey(doc));

  const pages: PDFPage[] = [];
  const newPage = () => {
    const page = pdf.addPage([PAGE_W, PAGE_H]);
    pages.push(page);
    return page;
  };
  let page = newPage();

  // The head: the title in both languages, the document's facts under it, the QR at the other side.
  const top = PAGE_H - MARGIN;
  const textW = CONTENT_W - QR_SIZE - 24;
  let y = top - 20;
  sheet.text(page, title.lead, 0, y, { size: 20, bold: true });
  y -= 22;
  sheet.text(page, title.other, 0, y, { size: 14, bold: true, color: GREY });
  y -= 26;
  const qrLeft = sheet.dir === "rtl" ? MARGIN : PAGE_W - MARGIN - QR_SIZE;
  drawQr(page, qr, qrLeft, top, QR_SIZE);

  const facts: [MessageKey, string][] = [
    ["einvoicing.pdf.number", doc.number],
    ["einvoicing.pdf.issuedAt", riyadhTime(doc.issued_at)],
    ["einvoicing.pdf.orderNumber", doc.order_number],
  ];
  if (doc.kind !== "invoice" && doc.invoice_number) facts.push(["einvoicing.pdf.correctsInvoice", doc.invoice_number]);
  const valueAt = 190;
  for (const [key, value] of facts) {
    sheet.label(page, key, 0, y, 9);
    sheet.value(page, value, valueAt, y, { size: 10, bold: key === "einvoicing.pdf.number" });
    y -= 16;
  }
  if (doc.kind !== "invoice" && doc.reason) {
    sheet.label(page, "einvoicing.pdf.reason", 0, y, 9);
    y = sheet.paragraph(page, doc.reason, valueAt, y, textW - valueAt, { size: 10 }, 3) + 3;
  }
  y = Math.min(y, top - QR_SIZE) - 14;

  // Seller and buyer, side by side.
  const half = (CONTENT_W - 20) / 2;
  const party = (s: number, heading: MessageKey, names: string[], lines: string[], vat: string | null | undefined) => {
    let py = y;
    sheet.label(page, heading, s, py, 10);
    py -= 4;
    rule(page, sheet.left(s, half), sheet.left(s, half) + half, py);
    py -= 13;
    names.forEach((name, i) => {
      if (!name) return;
      py = sheet.paragraph(
        page,
        name,
        s,
        py,
        half,
        { size: i === 0 ? 10.5 : 9.5, bold: i === 0, color: i ? GREY : BLACK },
        2,
      );
    });
    for (const line of lines) if (line) py = sheet.paragraph(page, line, s, py, half, { size: 9.5 }, 3);
    if (vat) {
      const w = sheet.label(page, "einvoicing.pdf.vatNumber", s, py, 9);
      sheet.value(page, vat, s + w + 6, py, { size: 9.5 });
      py -= 13;
    }
    return py;
  };
  const sellerNames =
    lang === "ar" ? [doc.seller.name_ar, doc.seller.name_en] : [doc.seller.name_en, doc.seller.name_ar];
  const sellerAddress =
    (lang === "ar" ? doc.seller.address_ar : doc.seller.address_en) ??
    doc.seller.address_en ??
    doc.seller.address_ar ??
    "";
  const sellerEnd = party(
    0,
    "einvoicing.pdf.seller",
    [...new Set(sellerNames)],
    [sellerAddress],
    doc.seller.vat_number,
  );
  const buyer = doc.buyer;
  const buyerEnd = party(
    half + 20,
    "einvoicing.pdf.buyer",
    [buyer.company ?? "", buyer.name].filter(Boolean),
    [[buyer.city, buyer.short_address].filter(Boolean).join(sheet.lang === "ar" ? "، " : ", ")],
    buyer.vat_number,
  );
  y = Math.min(sellerEnd, buyerEnd) - 12;

  // The lines.
  const right = (c: { s: number; w: number }) => sheet.left(c.s, c.w) + c.w - CELL_PAD;
  const headerRow = () => {
    const h = 28;
    fillRect(page, MARGIN, y - h, CONTENT_W, h, SHADE);
    const heads: [keyof typeof COLUMNS, MessageKey][] = [
      ["item", "einvoicing.pdf.item"],
      ["qty", "einvoicing.pdf.quantity"],
      ["unit", "einvoicing.pdf.unitPrice"],
      ["vat", "einvoicing.pdf.lineVat"],
      ["total", "einvoicing.pdf.lineTotal"],
    ];
    for (const [col, key] of heads) {
      const c = COLUMNS[col];
      const { lead, other } = sheet.say(key);
      const lines: [string, TextStyle][] = [
        [sheet.ts.fit(lead, { size: 7.5, bold: true }, c.w - 2 * CELL_PAD), { size: 7.5, bold: true }],
        [sheet.ts.fit(other, { size: 6.5, color: GREY }, c.w - 2 * CELL_PAD), { size: 6.5, color: GREY }],
      ];
      lines.forEach(([text, style], i) => {
        const ly = y - 11 - i * 10;
        if (col === "item") sheet.text(page, text, c.s + CELL_PAD, ly, style);
        else sheet.ts.draw(page, text, right(c), ly, style, "right", directionOf(text, sheet.dir));
      });
    }
    y -= h;
  };
  const bottom = MARGIN + FOOTER_H;
  headerRow();
  const itemStyle: TextStyle = { size: 9 };
  for (const line of doc.lines) {
    const names = sheet.ts.wrap(line.name, itemStyle, COLUMNS.item.w - 2 * CELL_PAD, 3);
    const h = names.length * 12 + 8;
    if (y - h < bottom) {
      page = newPage();
      y = top;
      headerRow();
    }
    names.forEach((n, i) => sheet.text(page, n, COLUMNS.item.s + CELL_PAD, y - 12 - i * 12, itemStyle));
    const ny = y - 12;
    sheet.number(page, String(line.quantity), right(COLUMNS.qty), ny, itemStyle);
    sheet.number(page, riyals(line.unit_price), right(COLUMNS.unit), ny, itemStyle);
    sheet.number(page, riyals(line.vat), right(COLUMNS.vat), ny, itemStyle);
    sheet.number(page, riyals(line.line_total), right(COLUMNS.total), ny, itemStyle);
    y -= h;
    rule(page, MARGIN, MARGIN + CONTENT_W, y);
  }

  // The totals, at the trailing side under the table.
  const totalsW = 300;
  const rate = Math.round(doc.vat_rate * 10000) / 100;
  const totals: [MessageKey, number, Record<string, number>?][] = [
    ["einvoicing.pdf.totalExclVat", doc.total - doc.vat],
    ["einvoicing.pdf.vatAtRate", doc.vat, { rate }],
    ["einvoicing.pdf.totalInclVat", doc.total],
  ];
  const rowH = 28;
  if (y - 10 - totals.length * rowH < bottom) {
    page = newPage();
    y = top;
  }
  y -= 10;
  const ts = CONTENT_W - totalsW;
  totals.forEach(([key, amount, params], i) => {
    const last = i === totals.length - 1;
    if (last) fillRect(page, sheet.left(ts, totalsW), y - rowH + 4, totalsW, rowH, SHADE);
    const { lead, other } = sheet.say(key, params);
    sheet.text(page, lead, ts + CELL_PAD, y - 11, { size: 9, bold: true });
    sheet.text(page, other, ts + CELL_PAD, y - 21, { size: 7.5, color: GREY });
    const money = sheet.say("einvoicing.pdf.amount", { amount: riyals(amount) }).lead;
    sheet.text(page, money, CONTENT_W - CELL_PAD, y - 15, { size: last ? 11 : 10, bold: last }, true);
    y -= rowH;
  });

  // Each page's footer: the currency note, the seller, the page's number.
  pages.forEach((p, i) => {
    const fy = MARGIN;
    rule(p, MARGIN, MARGIN + CONTENT_W, fy + 16);
    const note = sheet.say("einvoicing.pdf.amountsIn");
    const w = sheet.text(p, note.lead, 0, fy + 4, { size: 7.5, color: GREY });
    sheet.text(p, note.other, w + 8, fy + 4, { size: 7.5, color: GREY });
    const n = sheet.say("einvoicing.pdf.page", { page: i + 1, pages: pages.length }).lead;
    sheet.text(p, n, CONTENT_W, fy + 4, { size: 7.5, color: GREY }, true);
  });

  // What PDF/A-3 asks of the file itself.
  const issued = new Date(Math.floor(Date.parse(doc.issued_at) / 1000) * 1000 || 0);
  const docTitle = `${title.lead} ${doc.number}`;
  pdf.setTitle(docTitle);
  pdf.setProducer(PRODUCER);
  pdf.setCreator(PRODUCER);
  pdf.setCreationDate(issued);
  pdf.setModificationDate(issued);
  pdf.setLanguage(lang === "ar" ? "ar-SA" : "en");

  const xmlBytes = new TextEncoder().encode(xml);
  await pdf.attach(xmlBytes, xmlFileName, {
    mimeType: "text/xml",
    description: sheet.say("einvoicing.pdf.attachment").lead,
    creationDate: issued,
    modificationDate: issued,
    // As ZATCA's own PDF/A-3 samples mark their XML: the data the document shows.
    afRelationship: AFRelationship.Data,
  });

  const context = pdf.context;
  const metadata = context.stream(xmpPacket({ title: docTitle, date: issued, producer: PRODUCER, lang }), {
    Type: "Metadata",
    Subtype: "XML",
  });
  pdf.catalog.set(PDFName.of("Metadata"), context.register(metadata));

  const profile = context.register(context.flateStream(srgbIccProfile(), { N: 3 }));
  const intent = context.obj({
    Type: "OutputIntent",
    S: "GTS_PDFA1",
    OutputConditionIdentifier: PDFString.of("sRGB IEC61966-2.1"),
    RegistryName: PDFString.of("http://www.color.org"),
    Info: PDFString.of("sRGB IEC61966-2.1"),
    DestOutputProfile: profile,
  });
  pdf.catalog.set(PDFName.of("OutputIntents"), context.obj([intent]));

  // The ID: a digest of the document's number and XML, so the same document always gets the same ID.
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${doc.number}\n${xml}`)),
  );
  const id = [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  context.trailerInfo.ID = context.obj([PDFHexString.of(id), PDFHexString.of(id)]);

  return pdf.save();
}

const fromBase64 = (b64: string) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));

const escapeXml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The XMP packet: PDF/A-3b's identification and the Info dictionary's entries, repeated as PDF/A requires. */
function xmpPacket(m: { title: string; date: Date; producer: string; lang: Lang }): Uint8Array {
  const date = m.date.toISOString().replace(/\.\d{3}Z$/, "Z");
  const xmp = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
  <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
    <rdf:Description rdf:about=""
        xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"
        xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:xmp="http://ns.adobe.com/xap/1.0/"
        xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
      <pdfaid:part>3</pdfaid:part>
      <pdfaid:conformance>B</pdfaid:conformance>
      <dc:format>application/pdf</dc:format>
      <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(m.title)}</rdf:li></rdf:Alt></dc:title>
      <dc:language><rdf:Bag><rdf:li>${m.lang === "ar" ? "ar-SA" : "en"}</rdf:li></rdf:Bag></dc:language>
      <xmp:CreateDate>${date}</xmp:CreateDate>
      <xmp:ModifyDate>${date}</xmp:ModifyDate>
      <xmp:MetadataDate>${date}</xmp:MetadataDate>
      <xmp:CreatorTool>${escapeXml(m.producer)}</xmp:CreatorTool>
      <pdf:Producer>${escapeXml(m.producer)}</pdf:Producer>
    </rdf:Description>
  </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
  return new TextEncoder().encode(xmp);
}
