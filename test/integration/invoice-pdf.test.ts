import {
  PDFArray,
  PDFDict,
  type PDFDocument as Doc,
  PDFDocument,
  PDFName,
  type PDFObject,
  PDFRawStream,
  PDFStream,
  decodePDFRawStream,
} from "pdf-lib";
import { encode } from "uqr";
import { describe, expect, it } from "vitest";
import { riyals, taxDocumentPdf } from "../../worker/backend/services/einvoicing/invoice-pdf";
import { readPage } from "../support/pdf-reader";
import { CASES, qrOf, xmlOf } from "../support/tax-documents";

// The shopper's PDF copy of a tax document (worker/backend/services/einvoicing/invoice-pdf.ts),
// made in the Workers runtime as the PDF route makes it, and read back with pdf-lib's parser: what
// PDF/A-3b asks of the file (the XML attached as an associated file, the XMP identification, the
// sRGB OutputIntent, every font embedded, an ID, nothing encrypted, scripted or transparent) and
// what the shopper reads on the page (test/support/pdf-reader.ts reads the text back, Arabic
// through its ActualText). test/unit/invoice-pdf-files.test.ts writes the same files to
// test-results/invoice-pdf/ to be looked at.

const BASE_14 = /^\/(Times|Helvetica|Courier|Symbol|ZapfDingbats)/;

function bytesOf(obj: PDFObject | undefined): Uint8Array {
  if (obj instanceof PDFRawStream) return decodePDFRawStream(obj).decode();
  if (obj instanceof PDFStream) return obj.getContents();
  throw new Error(`not a stream: ${String(obj)}`);
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

function dict(doc: Doc, parent: PDFDict, key: string): PDFDict {
  return parent.lookup(PDFName.of(key), PDFDict);
}

/** Every font the pages use, with what its descriptor embeds. */
function fontsOf(doc: Doc): { name: string; embedded: string[] }[] {
  const out: { name: string; embedded: string[] }[] = [];
  for (const page of doc.getPages()) {
    const fonts = page.node.Resources()?.lookupMaybe(PDFName.of("Font"), PDFDict);
    for (const [, ref] of fonts?.entries() ?? []) {
      const font = doc.context.lookup(ref, PDFDict);
      const descendant =
        font.get(PDFName.of("Subtype"))?.toString() === "/Type0"
          ? doc.context.lookup(font.lookup(PDFName.of("DescendantFonts"), PDFArray).get(0), PDFDict)
          : font;
      const descriptor = descendant.lookupMaybe(PDFName.of("FontDescriptor"), PDFDict);
      const embedded = ["FontFile", "FontFile2", "FontFile3"].filter((k) => descriptor?.has(PDFName.of(k)));
      out.push({ name: String(font.get(PDFName.of("BaseFont"))), embedded });
    }
  }
  return out;
}

async function render(c: (typeof CASES)[number], lang: "en" | "ar") {
  const xml = xmlOf(c.document);
  const qr = qrOf(c.document);
  const bytes = await taxDocumentPdf({
    document: c.document,
    xml,
    xmlFileName: `${c.document.number}.xml`,
    qr,
    lang,
  });
  return { bytes, xml, qr, doc: await PDFDocument.load(bytes, { updateMetadata: false }) };
}

describe("the tax document's PDF copy", () => {
  for (const c of CASES)
    for (const lang of ["en", "ar"] as const)
      describe(`${c.name} in ${lang}`, () => {
        it("carries the XML byte for byte as an associated file named as given, text/xml, with its relationship", async () => {
          const { doc, xml } = await render(c, lang);
          const names = dict(doc, dict(doc, doc.catalog, "Names"), "EmbeddedFiles").lookup(
            PDFName.of("Names"),
            PDFArray,
          );
          expect(names.size()).toBe(2);
          const spec = names.lookup(1, PDFDict);
          expect(spec.get(PDFName.of("Type"))?.toString()).toBe("/Filespec");
          expect(spec.lookup(PDFName.of("F"))?.toString()).toBe(`(${c.document.number}.xml)`);
          expect(spec.lookup(PDFName.of("UF"))).toBeDefined();
          expect(["/Data", "/Alternative"]).toContain(spec.get(PDFName.of("AFRelationship"))?.toString());
          const stream = dict(doc, spec, "EF").lookup(PDFName.of("F"));
          expect(stream).toBeInstanceOf(PDFRawStream);
          const streamDict = (stream as PDFRawStream).dict;
          expect(streamDict.get(PDFName.of("Subtype"))?.toString()).toBe("/text#2Fxml");
          expect(streamDict.lookup(PDFName.of("Params"), PDFDict).has(PDFName.of("ModDate"))).toBe(true);
          expect(bytesOf(stream)).toEqual(new TextEncoder().encode(xml));
          // The catalog's /AF lists the same file specification.
          const af = doc.catalog.lookup(PDFName.of("AF"), PDFArray);
          expect(af.asArray().map(String)).toContain(String(names.get(1)));
        });

        it("identifies itself as PDF/A-3b in XMP that repeats the Info dictionary, with an sRGB OutputIntent and an ID", async () => {
          const { doc } = await render(c, lang);
          const xmp = text(bytesOf(doc.catalog.lookup(PDFName.of("Metadata"))));
          expect(xmp).toMatch(/<pdfaid:part>3<\/pdfaid:part>/);
          expect(xmp).toMatch(/<pdfaid:conformance>B<\/pdfaid:conformance>/);
          expect(xmp).toContain(`<xmp:CreateDate>${doc.getCreationDate()!.toISOString().replace(".000Z", "Z")}<`);
          expect(xmp).toContain(`<pdf:Producer>${doc.getProducer()}</pdf:Producer>`);
          expect(xmp).toContain(`<rdf:li xml:lang="x-default">${doc.getTitle()}</rdf:li>`);
          expect(doc.getTitle()).toContain(c.document.number);

          const intents = doc.catalog.lookup(PDFName.of("OutputIntents"), PDFArray);
          const intent = intents.lookup(0, PDFDict);
          expect(intent.get(PDFName.of("S"))?.toString()).toBe("/GTS_PDFA1");
          const profile = intent.lookup(PDFName.of("DestOutputProfile"));
          expect((profile as PDFRawStream).dict.get(PDFName.of("N"))?.toString()).toBe("3");
          const icc = bytesOf(profile);
          const ascii = (from: number) => String.fromCharCode(...icc.slice(from, from + 4));
          expect(new DataView(icc.buffer, icc.byteOffset).getUint32(0)).toBe(icc.length);
          expect([ascii(12), ascii(16), ascii(20), ascii(36)]).toEqual(["mntr", "RGB ", "XYZ ", "acsp"]);

          const id = doc.context.trailerInfo.ID;
          expect(id).toBeInstanceOf(PDFArray);
          expect((id as PDFArray).size()).toBe(2);
        });

        it("embeds every font it uses (no standard font), and has no encryption, script or transparency", async () => {
          const { doc } = await render(c, lang);
          const fonts = fontsOf(doc);
          expect(fonts.length).toBeGreaterThanOrEqual(3);
          for (const f of fonts) {
            expect(f.name).not.toMatch(BASE_14);
            expect(f.embedded, f.name).not.toEqual([]);
          }
          expect(doc.context.trailerInfo.Encrypt).toBeUndefined();
          for (const key of ["OpenAction", "AA"]) expect(doc.catalog.has(PDFName.of(key))).toBe(false);
          expect(dict(doc, doc.catalog, "Names").has(PDFName.of("JavaScript"))).toBe(false);
          for (const page of doc.getPages()) {
            expect(page.node.has(PDFName.of("Group"))).toBe(false);
            expect(page.node.lookupMaybe(PDFName.of("Annots"), PDFArray)?.size() ?? 0).toBe(0);
            // pdf-lib leaves an empty ExtGState dictionary in every page's resources: it must stay empty.
            const states = page.node.Resources()?.lookupMaybe(PDFName.of("ExtGState"), PDFDict);
            expect(states?.entries() ?? []).toEqual([]);
          }
        });

        it("shows its number, order, totals, the Arabic title and the QR code of the payload", async () => {
          const { doc, qr } = await render(c, lang);
          const drawings = doc.getPages().map((p) => readPage(doc, p));
          const texts = drawings.flatMap((d) => d.texts.map((t) => t.text.trim()));
          const all = texts.join("\n");
          const d = c.document;
          expect(texts).toContain(d.number);
          expect(texts).toContain(d.order_number);
          expect(texts).toContain("2026-12-06 15:04");
          for (const amount of [d.total - d.vat, d.vat, d.total]) expect(all).toContain(riyals(amount));
          for (const l of d.lines) expect(all).toContain(riyals(l.line_total));
          expect(texts).toContain(c.arabicTitle);
          if (d.invoice_number && d.kind !== "invoice") expect(texts).toContain(d.invoice_number);
          if (d.buyer.vat_number) expect(texts).toContain(d.buyer.vat_number);
          expect(texts).toContain(d.seller.vat_number);

          // The title leads on the shopper's side: the left margin in English, the right in Arabic.
          const first = drawings[0];
          const title = first.texts.reduce((a, b) => (b.size > a.size ? b : a));
          if (lang === "ar") expect(title.x).toBeGreaterThan(first.width / 2);
          else expect(title.x).toBeLessThan(60);
          expect(title.text).toBe(lang === "ar" ? c.arabicTitle : title.text);

          // The QR code: the page's small filled squares cover exactly the payload's dark modules.
          const matrix = encode(qr, { ecc: "M", border: 0 });
          const dark = matrix.data.flat().filter(Boolean).length;
          const module = Math.min(...first.rects.filter((r) => r.filled && r.h < 5).map((r) => r.h));
          const modules = first.rects
            .filter((r) => r.filled && Math.abs(r.h - module) < 1e-6)
            .reduce((sum, r) => sum + Math.round(r.w / module), 0);
          expect(modules).toBe(dark);
        });
      });

  it("the same document gives the same bytes, so a copy can be cached and compared", async () => {
    const [a, b] = await Promise.all([render(CASES[0], "ar"), render(CASES[0], "ar")]);
    expect(a.bytes).toEqual(b.bytes);
  });

  it("a long document runs onto more pages, each line once, the totals on the last", async () => {
    const base = CASES[0].document;
    const lines = Array.from({ length: 60 }, (_, i) => ({ ...base.lines[i % 3], name: `Item ${i + 1}` }));
    const total = lines.reduce((s, l) => s + l.line_total, 0);
    const vat = lines.reduce((s, l) => s + l.vat, 0);
    const document = { ...base, lines, total, vat, subtotal: total - vat };
    const bytes = await taxDocumentPdf({ document, xml: "<Invoice/>", xmlFileName: "x.xml", qr: "AQ==", lang: "en" });
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBeGreaterThan(1);
    const pages = doc.getPages().map((p) => readPage(doc, p).texts.map((t) => t.text.trim()));
    const items = pages.flat().filter((t) => /^Item \d+$/.test(t));
    expect(items).toEqual(lines.map((l) => l.name));
    expect(pages.at(-1)).toContain(`SAR ${riyals(total)}`);
    expect(pages.at(-1)).toContain(`Page ${pages.length} of ${pages.length}`);
  });
});
