// Tax documents of each kind for the PDF copy's tests (invoice-pdf.test.ts in the Workers runtime,
// invoice-pdf-files.test.ts writing the files for a person to open): a simplified invoice, a
// standard one to a VAT-registered company, a credit note and a debit note, with the lines adding
// up as the backend makes them (each line's VAT its share of the document's, totals exact).
import type { PdfTaxDocument } from "../../worker/backend/services/einvoicing/invoice-pdf";

const seller: PdfTaxDocument["seller"] = {
  name_en: "Souq Electronics Trading Co.",
  name_ar: "شركة سوق للإلكترونيات التجارية",
  vat_number: "300000000000003",
  address_en: "King Fahd Road, Olaya Towers, Riyadh 12214",
  address_ar: "طريق الملك فهد، أبراج العليا، الرياض 12214",
};

/** A line of `quantity` at `unitInclVat` halalas, VAT at 15% inside. */
const line = (name: string, quantity: number, unitInclVat: number) => {
  const total = quantity * unitInclVat;
  const vat = Math.round((total * 15) / 115);
  return { name, quantity, unit_price: Math.round((total - vat) / quantity), vat, line_total: total };
};

function document(over: Partial<PdfTaxDocument> & Pick<PdfTaxDocument, "kind" | "number" | "lines">): PdfTaxDocument {
  const total = over.lines.reduce((s, l) => s + l.line_total, 0);
  const vat = over.lines.reduce((s, l) => s + l.vat, 0);
  return {
    issued_at: "2026-12-06T12:04:31.250Z",
    order_number: "1042",
    invoice_number: null,
    seller,
    buyer: { name: "محمد عبدالله القحطاني", city: "الرياض", short_address: "RRRD2929" },
    reason: null,
    subtotal: total - vat,
    discount: 0,
    shipping: 0,
    vat,
    total,
    vat_rate: 0.15,
    currency: "SAR",
    qr: "",
    transaction: over.buyer?.vat_number ? "standard" : "simplified",
    einvoice: null,
    ...over,
  };
}

const LINES = [
  line("Wireless earbuds Pro (black) — سماعات لاسلكية", 2, 34_500),
  line("USB-C charger 65 W", 1, 12_900),
  line("Laptop sleeve 14-inch, water-resistant neoprene with a front pocket for the charger and cables", 3, 8_950),
  line("Shipping", 1, 2_500),
];

export interface Case {
  name: string;
  document: PdfTaxDocument;
  /** The Arabic title the page must carry. */
  arabicTitle: string;
}

export const CASES: Case[] = [
  {
    name: "simplified-invoice",
    document: document({ kind: "invoice", number: "INV-000042", lines: LINES }),
    arabicTitle: "فاتورة ضريبية مبسطة",
  },
  {
    name: "standard-invoice",
    document: document({
      kind: "invoice",
      number: "INV-000043",
      order_number: "1043",
      lines: [line("Office monitor 27-inch", 5, 89_900), line("HDMI cable 2 m", 5, 3_450)],
      buyer: {
        name: "Sarah Al-Harbi",
        company: "Al-Harbi Engineering Consultants",
        vat_number: "310122393500003",
        city: "Jeddah",
        short_address: "JEDA4321",
      },
    }),
    arabicTitle: "فاتورة ضريبية",
  },
  {
    name: "credit-note",
    document: document({
      kind: "credit_note",
      number: "CN-000007",
      invoice_number: "INV-000042",
      reason: "Returned: damaged in transit (تالف أثناء الشحن)",
      lines: [line("Wireless earbuds Pro (black) — سماعات لاسلكية", 1, 34_500)],
    }),
    arabicTitle: "إشعار دائن",
  },
  {
    name: "debit-note",
    document: document({
      kind: "debit_note",
      number: "DN-000003",
      invoice_number: "INV-000043",
      reason: "تصحيح سعر الوحدة: Unit price corrected",
      order_number: "1043",
      lines: [line("Price correction: Office monitor 27-inch", 1, 5_750)],
    }),
    arabicTitle: "إشعار مدين",
  },
];

/** A stand-in for the signed UBL: the test only needs its bytes back, Arabic and all. */
export const xmlOf = (doc: PdfTaxDocument) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">\n  <cbc:ID xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">${doc.number}</cbc:ID>\n  <cbc:Note xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">${doc.seller.name_ar}</cbc:Note>\n</Invoice>\n`;

/** A ZATCA-shaped TLV payload (seller, VAT number, time, total, VAT), base64. */
export function qrOf(doc: PdfTaxDocument): string {
  const fields = [
    doc.seller.name_ar,
    doc.seller.vat_number,
    doc.issued_at,
    (doc.total / 100).toFixed(2),
    (doc.vat / 100).toFixed(2),
  ];
  const bytes: number[] = [];
  fields.forEach((f, i) => {
    const v = new TextEncoder().encode(f);
    bytes.push(i + 1, v.length, ...v);
  });
  return btoa(String.fromCharCode(...bytes));
}
