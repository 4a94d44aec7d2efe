import { PDFDict, PDFDocument, PDFName, type PDFRawStream, decodePDFRawStream } from "pdf-lib";
import { describe, expect, it } from "vitest";
import type { CarrierAddress } from "../../worker/backend/services/shipping/carrier";
import {
  type LabelParcel,
  type ManifestRow,
  labelsPdf,
  manifestPdf,
  pickListPdf,
} from "../../worker/backend/services/shipping/labels";
import { type PageDrawing, readCode128, readPage } from "../support/pdf-reader";

// The printable shipping documents (worker/backend/services/shipping/labels.ts), read back from
// the PDF bytes in the Workers runtime where the console makes them. The barcode is read from the
// page's filled rectangles and decoded as Code 128 by test/support/pdf-reader.ts, which holds its
// own table; the text from the content stream: Helvetica's WinAnsi strings as they are, the Arabic
// font's glyphs through its ToUnicode map (a glyph drawn in the wrong form or a run left unshaped
// still maps back to its letters, so the shaping itself was checked by eye on rendered pages).

const MM = 72 / 25.4;

const shipper: CarrierAddress = {
  name: "Souq Electronics",
  phone: "+966 11 234 5678",
  line1: "King Fahd Road, Olaya Towers",
  district: "Al Olaya",
  city: "Riyadh",
  postal_code: "12214",
  short_address: "RAOA3456",
  building_number: "3456",
  additional_number: "7788",
  country: "SA",
};
const arabicConsignee: CarrierAddress = {
  name: "محمد عبدالله القحطاني",
  phone: "+966 55 123 4567",
  line1: "شارع الأمير سلطان",
  line2: "شقة 12، الدور الثاني",
  district: "حي النرجس",
  city: "الرياض",
  postal_code: "13327",
  short_address: "RRRD2929",
  building_number: "2929",
  additional_number: "8123",
  country: "SA",
};
const latinConsignee: CarrierAddress = {
  name: "Sarah Al-Harbi",
  phone: "+966 50 987 6543",
  line1: "12 Tahlia Street",
  district: "Al Rawdah",
  city: "Jeddah",
  postal_code: "23435",
  country: "SA",
};

const parcel = (over: Partial<LabelParcel>): LabelParcel => ({
  waybill: "123456789012",
  carrier: { en: "Aramex", ar: "أرامكس" },
  reference: "1042-1",
  order_number: "1042",
  parcel: 1,
  parcels: 2,
  shipper,
  consignee: arabicConsignee,
  weight_grams: 1250,
  cod_amount: 18900,
  shipped_on: "2026-12-06",
  ...over,
});

const PARCELS: LabelParcel[] = [
  parcel({}),
  parcel({ waybill: "AWB-98765x", reference: "1042-2", parcel: 2, weight_grams: 480, cod_amount: 0 }),
  parcel({
    waybill: "3456789",
    carrier: { en: "SMSA Express", ar: "سمسا إكسبرس" },
    reference: "1043-1",
    order_number: "1043",
    parcel: 1,
    parcels: 1,
    consignee: latinConsignee,
    cod_amount: 123456,
  }),
];

async function pages(bytes: Uint8Array): Promise<{ doc: PDFDocument; drawings: PageDrawing[] }> {
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
  const doc = await PDFDocument.load(bytes);
  return { doc, drawings: doc.getPages().map((page) => readPage(doc, page)) };
}

/** The page's text pieces, each trimmed (Helvetica's spaces are skipped; an Arabic piece may carry its own). */
const textsOf = (d: PageDrawing) => d.texts.map((t) => t.text.trim()).filter(Boolean);
const pieceOf = (d: PageDrawing, text: string) => {
  const found = d.texts.find((t) => t.text.trim() === text);
  if (!found) throw new Error(`no piece "${text}" among ${JSON.stringify(textsOf(d))}`);
  return found;
};

describe("parcel labels", () => {
  it("have one page per parcel, of the size asked for", async () => {
    for (const [size, w, h] of [
      ["a6", 105 * MM, 148 * MM],
      ["4x6", 288, 432],
    ] as const) {
      const { doc } = await pages(await labelsPdf(PARCELS, size));
      expect(doc.getPageCount()).toBe(PARCELS.length);
      for (const page of doc.getPages()) {
        expect(page.getWidth()).toBeCloseTo(w, 1);
        expect(page.getHeight()).toBeCloseTo(h, 1);
      }
    }
    await expect(labelsPdf([], "a6")).rejects.toThrow(RangeError);
  });

  it("print each waybill as a Code 128 barcode that reads back, big enough to scan, with its quiet zones and its number under it", async () => {
    for (const size of ["a6", "4x6"] as const) {
      const { drawings } = await pages(await labelsPdf(PARCELS, size));
      drawings.forEach((d, i) => {
        const code = readCode128(d);
        expect(code.text).toBe(PARCELS[i].waybill);
        // 0.25 mm modules at least, bars 15 mm tall at least, 10 modules blank either side.
        expect(code.module).toBeGreaterThanOrEqual(0.25 * MM - 0.01);
        expect(code.height).toBeGreaterThanOrEqual(15 * MM);
        expect(code.quietLeft).toBeGreaterThanOrEqual(10 * code.module - 0.01);
        expect(code.quietRight).toBeGreaterThanOrEqual(10 * code.module - 0.01);
        // The number, under the bars.
        const number = d.texts.find((t) => t.text.replaceAll(" ", "") === PARCELS[i].waybill);
        expect(number, JSON.stringify(textsOf(d))).toBeDefined();
        expect(number!.y).toBeLessThan(code.bottom);
        expect(number!.x).toBeGreaterThanOrEqual(code.left - 10 * code.module);
      });
    }
  });

  it("reads back long and mixed waybills too (code sets B and C, odd digit runs)", async () => {
    const waybills = ["1", "12", "123", "ABC", "A1B2C3", "SMSA-000123456789", "290012345678901", "x9999y", "00001"];
    const { drawings } = await pages(
      await labelsPdf(
        waybills.map((waybill) => parcel({ waybill })),
        "a6",
      ),
    );
    expect(drawings.map((d) => readCode128(d).text)).toEqual(waybills);
  });

  it("reads back every symbol the encoder uses: each printable ASCII character (code set B) and each digit pair (code set C)", async () => {
    const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");
    const pairs = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, "0")).join("");
    const chunk = (text: string, n: number) =>
      Array.from({ length: Math.ceil(text.length / n) }, (_, i) => text.slice(i * n, i * n + n));
    const waybills = [...chunk(ascii, 16), ...chunk(pairs, 40)];
    const { drawings } = await pages(
      await labelsPdf(
        waybills.map((waybill) => parcel({ waybill })),
        "a6",
      ),
    );
    drawings.forEach((d, i) => {
      const code = readCode128(d);
      expect(code.text).toBe(waybills[i]);
      expect(code.module).toBeGreaterThanOrEqual(0.25 * MM - 0.01);
    });
  });

  it("the reader refuses a damaged barcode: one bar widened, or one bar gone", async () => {
    const { drawings } = await pages(await labelsPdf([PARCELS[0]], "a6"));
    const bars = drawings[0].rects.filter((r) => r.filled && r.h > 20 && r.w < 5).sort((a, b) => a.x - b.x);
    const widened = { ...drawings[0], rects: drawings[0].rects.map((r) => (r === bars[7] ? { ...r, w: r.w * 2 } : r)) };
    expect(() => readCode128(widened)).toThrow();
    const gone = { ...drawings[0], rects: drawings[0].rects.filter((r) => r !== bars[12]) };
    expect(() => readCode128(gone)).toThrow();
  });

  it("carry the carrier, order, parcel count, both addresses with the national address, the weight and the date", async () => {
    const { drawings } = await pages(await labelsPdf(PARCELS, "a6"));
    const first = textsOf(drawings[0]);
    for (const text of [
      "Aramex",
      "أرامكس",
      "1042",
      "Ref 1042-1",
      "Parcel 1 of 2",
      "محمد عبدالله القحطاني",
      "+966 55 123 4567",
      "شارع الأمير سلطان",
      "RRRD2929",
      "2929",
      "13327",
      "8123",
      "Weight 1.25 kg",
      "Date 2026-12-06",
    ])
      expect(first, text).toContain(text);
    // The shipper's line carries its own national address.
    expect(first.some((t) => t.includes("RAOA3456") && t.includes("3456") && t.includes("7788"))).toBe(true);
    expect(first.some((t) => t.includes("Souq Electronics") && t.includes("+966 11 234 5678"))).toBe(true);
    // The Arabic district and city, right to left: the district at the right of the city.
    expect(pieceOf(drawings[0], "حي النرجس، الرياض،").x).toBeGreaterThan(pieceOf(drawings[0], "13327").x);
    expect(textsOf(drawings[1])).toContain("Parcel 2 of 2");
    expect(textsOf(drawings[1])).toContain("Weight 0.48 kg");
    const third = textsOf(drawings[2]);
    for (const text of [
      "SMSA Express",
      "سمسا إكسبرس",
      "Sarah Al-Harbi",
      "12 Tahlia Street",
      "Al Rawdah, Jeddah, 23435",
      "Parcel 1 of 1",
    ])
      expect(third, text).toContain(text);
  });

  it("box the cash to collect in both languages, or say prepaid", async () => {
    const { drawings } = await pages(await labelsPdf(PARCELS, "4x6"));
    const [cod, prepaid, big] = drawings;
    // The English line, and the Arabic one read right to left: phrase, then amount, then currency.
    const en = pieceOf(cod, "Collect on delivery: SAR 189.00");
    // (The colon and the full stop are Helvetica's: the Arabic font carries no ASCII punctuation.)
    const phrase = pieceOf(cod, "المبلغ المطلوب تحصيله");
    const onLine = (text: string) => cod.texts.find((t) => t.text.trim() === text && Math.abs(t.y - phrase.y) < 1)!;
    const [colon, amount, ra, dot, seen] = [":", "189.00", "ر", ".", "س"].map(onLine);
    for (const t of [colon, amount, ra, dot, seen]) expect(t).toBeDefined();
    const currency = seen;
    expect(phrase.x).toBeGreaterThan(colon.x);
    expect(colon.x).toBeGreaterThan(amount.x);
    expect(amount.x).toBeGreaterThan(ra.x);
    expect(ra.x).toBeGreaterThan(dot.x);
    expect(dot.x).toBeGreaterThan(seen.x);
    // Both inside one box drawn with a heavy border.
    const boxes = cod.rects.filter((r) => r.stroked && r.lineWidth >= 2);
    const inside = (r: (typeof boxes)[number], t: { x: number; y: number }) =>
      t.x > r.x && t.x < r.x + r.w && t.y > r.y && t.y < r.y + r.h;
    expect(boxes.some((r) => [en, phrase, amount, currency].every((t) => inside(r, t)))).toBe(true);
    expect(textsOf(cod).some((t) => t.startsWith("Prepaid"))).toBe(false);

    expect(textsOf(prepaid)).toContain("Prepaid /");
    expect(textsOf(prepaid)).toContain("مدفوع مسبقًا");
    expect(textsOf(prepaid).some((t) => t.includes("Collect on delivery"))).toBe(false);
    expect(textsOf(prepaid).some((t) => t.includes("تحصيله"))).toBe(false);

    // Halalas with two decimals and thousands grouped.
    expect(textsOf(big)).toContain("Collect on delivery: SAR 1,234.56");
    expect(textsOf(big)).toContain("1,234.56");
  });

  it("embed the Arabic font as a subset, and list the waybills in the metadata", async () => {
    const bytes = await labelsPdf(PARCELS, "a6");
    const { doc } = await pages(bytes);
    expect(doc.getKeywords()).toBe(PARCELS.map((p) => p.waybill).join(" "));
    // A subset font's name has a six-letter tag; the whole document stays small.
    const dicts = doc.context.enumerateIndirectObjects().flatMap(([, obj]) => (obj instanceof PDFDict ? [obj] : []));
    const baseFonts = dicts.map((d) => d.get(PDFName.of("BaseFont"))?.toString()).filter(Boolean);
    expect(baseFonts).toEqual(expect.arrayContaining(["/Helvetica", "/Helvetica-Bold"]));
    expect(baseFonts.filter((f) => f!.startsWith("/NotoSansArabic")).length).toBeGreaterThanOrEqual(2);
    // The embedded Arabic fonts hold only the glyphs drawn: well under the 24 KB each the worker carries.
    const files = dicts.flatMap((d) => {
      const file = d.get(PDFName.of("FontFile2"));
      return file ? [doc.context.lookup(file) as PDFRawStream] : [];
    });
    expect(files.length).toBe(2);
    for (const file of files) expect(decodePDFRawStream(file).decode().length).toBeLessThan(16_000);
    expect(bytes.length).toBeLessThan(60_000);
  });
});

describe("the pick list", () => {
  const lines = [
    {
      sku: "PHN-IP15-128",
      name: { en: "iPhone 15 128 GB Black", ar: "آيفون 15 سعة 128 جيجا أسود" },
      quantity: 3,
      orders: ["1042", "1043", "1050"],
    },
    {
      sku: "CBL-USBC-1M",
      name: { en: "USB-C cable 1 m", ar: "كابل يو إس بي سي 1 متر" },
      quantity: 5,
      orders: ["1042", "1044"],
    },
  ];

  it("lists each SKU with its name in both languages, quantity and orders, and the totals", async () => {
    const { doc, drawings } = await pages(await pickListPdf({ day: "2026-12-06", lines }));
    expect(doc.getPageCount()).toBe(1);
    expect(doc.getPage(0).getWidth()).toBeCloseTo(210 * MM, 1);
    const texts = textsOf(drawings[0]);
    for (const text of [
      "Pick list",
      "قائمة التجهيز",
      "Day 2026-12-06",
      "PHN-IP15-128",
      "iPhone 15 128 GB Black",
      "1042, 1043, 1050",
      "CBL-USBC-1M",
      "USB-C cable 1 m",
      "1042, 1044",
      "Total",
      "2 SKUs",
      "8",
      "4 orders",
      "Page 1 of 1",
    ])
      expect(texts, text).toContain(text);
    expect(texts).toContain("كابل يو إس بي سي");
    // Each row's quantity on the SKU's line; sorted by SKU.
    const row = (sku: string) => pieceOf(drawings[0], sku).y;
    expect(drawings[0].texts.find((t) => t.text === "3" && Math.abs(t.y - row("PHN-IP15-128")) < 1)).toBeDefined();
    expect(drawings[0].texts.find((t) => t.text === "5" && Math.abs(t.y - row("CBL-USBC-1M")) < 1)).toBeDefined();
    expect(row("CBL-USBC-1M")).toBeGreaterThan(row("PHN-IP15-128"));
  });
});

describe("the manifest", () => {
  const rows: ManifestRow[] = [
    {
      waybill: "123456789012",
      order_number: "1042",
      city: "الرياض",
      parcels: 2,
      weight_grams: 2500,
      cod_amount: 18900,
    },
    { waybill: "123456789013", order_number: "1043", city: "Jeddah", parcels: 1, weight_grams: 500, cod_amount: 0 },
    { waybill: "123456789014", order_number: "1044", city: "Dammam", parcels: 1, weight_grams: 1010, cod_amount: 5050 },
  ];

  it("lists each shipment and the totals of parcels, weight and cash to collect, with the hand-over signatures", async () => {
    const { doc, drawings } = await pages(
      await manifestPdf({ day: "2026-12-06", carrier: { en: "Aramex", ar: "أرامكس" }, shop: "Souq Electronics", rows }),
    );
    expect(doc.getPageCount()).toBe(1);
    const texts = textsOf(drawings[0]);
    for (const text of [
      "Shipping manifest",
      "Souq Electronics",
      "Day 2026-12-06",
      "123456789012",
      "123456789013",
      "123456789014",
      "الرياض",
      "Jeddah",
      "189.00",
      "Prepaid",
      "50.50",
      "1.01",
      "Total: 3 shipments",
      "4",
      "4.01",
      "239.50",
      "Handed over by (shop)",
      "Received by (courier)",
      "Page 1 of 1",
    ])
      expect(texts, text).toContain(text);
    // The totals on one line.
    const total = pieceOf(drawings[0], "Total: 3 shipments");
    const onTotal = drawings[0].texts.filter((t) => Math.abs(t.y - total.y) < 1).map((t) => t.text);
    expect(onTotal).toEqual(expect.arrayContaining(["4", "4.01", "239.50"]));
  });

  it("runs onto more pages for a long day, each row once, the totals at the end", async () => {
    const many: ManifestRow[] = Array.from({ length: 75 }, (_, i) => ({
      waybill: `9000000${String(i).padStart(5, "0")}`,
      order_number: String(2000 + i),
      city: i % 2 ? "Riyadh" : "جدة",
      parcels: 1,
      weight_grams: 1000,
      cod_amount: i % 3 === 0 ? 10000 : 0,
    }));
    const { doc, drawings } = await pages(
      await manifestPdf({ day: "2026-12-06", carrier: { en: "SMSA", ar: "سمسا" }, shop: "Souq", rows: many }),
    );
    const n = doc.getPageCount();
    expect(n).toBeGreaterThan(1);
    const all = drawings.flatMap(textsOf);
    for (const row of many) expect(all.filter((t) => t === row.waybill)).toHaveLength(1);
    expect(textsOf(drawings[n - 1])).toContain("Total: 75 shipments");
    expect(textsOf(drawings[n - 1])).toContain("2,500.00");
    drawings.forEach((d, i) => {
      expect(textsOf(d)).toContain(`Page ${i + 1} of ${n}`);
      expect(textsOf(d)).toContain("Shipping manifest");
    });
  });
});
