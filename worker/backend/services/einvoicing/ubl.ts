import { el, type XmlElement } from "./xml";

/**
 * The UBL 2.1 document ZATCA's XML implementation standard defines, for every document the shop
 * issues: the tax invoice (388), its credit note (381) and debit note (383), each either simplified
 * (a shopper: transaction code 0200000, reported after issue) or standard (a business buyer with a
 * VAT number: 0100000, cleared before issue). Amounts are integer halalas here and written as
 * riyals with two decimals; the VAT category is S (standard rate), the only one the shop sells at.
 */

export const NS = {
  invoice: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
  cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
  cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
  ext: "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2",
} as const;

export type EInvoiceKind = "invoice" | "credit_note" | "debit_note";
export type EInvoiceTransaction = "simplified" | "standard";

export const TYPE_CODES: Record<EInvoiceKind, string> = { invoice: "388", credit_note: "381", debit_note: "383" };
export const TRANSACTION_CODES: Record<EInvoiceTransaction, string> = { standard: "0100000", simplified: "0200000" };

/** A Saudi national address as ZATCA's rules want it (building and additional numbers 4 digits, postal code 5). */
export interface NationalAddress {
  street: string;
  building_number: string;
  /** The additional number (PlotIdentification). */
  additional_number?: string | null;
  district: string;
  city: string;
  postal_code: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface EInvoiceParty {
  /** The legal name (ZATCA's samples write "Arabic | English"). */
  name: string;
  vat_number?: string | null;
  /** Commercial registration number (the seller's other identifier, scheme CRN). */
  crn?: string | null;
  address?: NationalAddress | null;
}

export interface EInvoiceLineInput {
  name: string;
  quantity: number;
  /** The amount charged for the line, VAT included (halalas), as the shop prices it. */
  total: number;
}

export interface EInvoiceData {
  kind: EInvoiceKind;
  transaction: EInvoiceTransaction;
  /** The shop's number: INV-000001, CN-000001, DN-000001. */
  number: string;
  uuid: string;
  /** ISO 8601 UTC; written in Riyadh time, the time the shopper and ZATCA read. */
  issued_at: string;
  icv: number;
  /** The previous document's hash (base64), or the hash of "0" for the first. */
  pih: string;
  order_number: string;
  seller: EInvoiceParty;
  buyer: EInvoiceParty | null;
  lines: EInvoiceLineInput[];
  /** The order's discount, VAT included (halalas): a document-level allowance. */
  discount: number;
  /** What the document charges or credits, VAT included (halalas): the payable amount. */
  total: number;
  vat_rate: number;
  /** A note's invoice (its number) and why it was issued (BR-KSA-17, BR-KSA-56). */
  billing_reference?: string | null;
  reason?: string | null;
  /** UN/ECE 4461: 10 cash (on delivery), 48 bank card, 42 bank account, 30 credit transfer, 1 other. */
  payment_means: string;
  /** YYYY-MM-DD: the date of supply (KSA-5), required on standard invoices. */
  supply_date?: string | null;
}

export interface LineFigures {
  name: string;
  quantity: number;
  /** Net unit price (halalas, no VAT). */
  price: number;
  net: number;
  vat: number;
  with_vat: number;
}

export interface DocumentFigures {
  lines: LineFigures[];
  line_extension: number;
  allowance: number;
  tax_exclusive: number;
  vat: number;
  tax_inclusive: number;
  /** What rounding the lines one by one left against the amount charged (PayableRoundingAmount). */
  rounding: number;
  payable: number;
}

const roundHalfUp = (x: number) => Math.sign(x) * Math.round(Math.abs(x));

/**
 * The document's figures by ZATCA's arithmetic: each line's net from its VAT-inclusive price (unit
 * price rounded to the halala, times the quantity), its VAT the net times the rate rounded
 * (BR-KSA-50), the discount an allowance without VAT, and the document's VAT what the amount
 * charged leaves over the taxable amount (within BR-CO-17's tolerance of taxable × rate), so the
 * document's total is what the shop charged.
 */
export function figuresOf(data: Pick<EInvoiceData, "lines" | "discount" | "total" | "vat_rate">): DocumentFigures {
  const rate = data.vat_rate;
  const lines = data.lines.map((l) => {
    const price = roundHalfUp(l.total / l.quantity / (1 + rate));
    const net = price * l.quantity;
    const vat = roundHalfUp(net * rate);
    return { name: l.name, quantity: l.quantity, price, net, vat, with_vat: net + vat };
  });
  const line_extension = lines.reduce((a, l) => a + l.net, 0);
  const allowance = roundHalfUp(data.discount / (1 + rate));
  const tax_exclusive = line_extension - allowance;
  // The VAT the amount charged leaves over the taxable amount, while it stays within BR-CO-17's
  // one-riyal tolerance of taxable × rate (a few halalas of line rounding): the document then totals
  // exactly what the shopper paid. Beyond it, the rate's VAT and a rounding amount.
  const exact = roundHalfUp(tax_exclusive * rate);
  const vat = Math.abs(data.total - tax_exclusive - exact) < 100 ? data.total - tax_exclusive : exact;
  const tax_inclusive = tax_exclusive + vat;
  return {
    lines,
    line_extension,
    allowance,
    tax_exclusive,
    vat,
    tax_inclusive,
    rounding: data.total - tax_inclusive,
    payable: data.total,
  };
}

export const sar = (halalas: number) => (halalas / 100).toFixed(2);
const amount = (name: string, halalas: number) => el(name, { currencyID: "SAR" }, sar(halalas));
const percent = (rate: number) => (Math.round(rate * 10000) / 100).toFixed(2);

/** Riyadh time (UTC+3 all year): the document's date and time. */
export function riyadhDateTime(iso: string): { date: string; time: string } {
  const local = new Date(Date.parse(iso) + 3 * 3600_000).toISOString();
  return { date: local.slice(0, 10), time: local.slice(11, 19) };
}

const taxCategory = (tag: "cac:TaxCategory" | "cac:ClassifiedTaxCategory", rate: number, scheme: boolean) =>
  el(
    tag,
    {},
    el("cbc:ID", scheme ? { schemeID: "UN/ECE 5305", schemeAgencyID: "6" } : {}, "S"),
    el("cbc:Percent", {}, percent(rate)),
    el("cac:TaxScheme", {}, el("cbc:ID", scheme ? { schemeID: "UN/ECE 5153", schemeAgencyID: "6" } : {}, "VAT")),
  );

const postalAddress = (a: NationalAddress) =>
  el(
    "cac:PostalAddress",
    {},
    el("cbc:StreetName", {}, a.street),
    el("cbc:BuildingNumber", {}, a.building_number),
    a.additional_number ? el("cbc:PlotIdentification", {}, a.additional_number) : null,
    el("cbc:CitySubdivisionName", {}, a.district),
    el("cbc:CityName", {}, a.city),
    el("cbc:PostalZone", {}, a.postal_code),
    el("cac:Country", {}, el("cbc:IdentificationCode", {}, a.country)),
  );

const party = (p: EInvoiceParty, role: "seller" | "buyer") =>
  el(
    "cac:Party",
    {},
    p.crn ? el("cac:PartyIdentification", {}, el("cbc:ID", { schemeID: "CRN" }, p.crn)) : null,
    p.address ? postalAddress(p.address) : null,
    p.vat_number || role === "seller"
      ? el(
          "cac:PartyTaxScheme",
          {},
          p.vat_number ? el("cbc:CompanyID", {}, p.vat_number) : null,
          el("cac:TaxScheme", {}, el("cbc:ID", {}, "VAT")),
        )
      : null,
    el("cac:PartyLegalEntity", {}, el("cbc:RegistrationName", {}, p.name)),
  );

/** What the stamp adds to the document: the signature extension and the QR code. */
export interface StampParts {
  extension?: XmlElement;
  qr?: string;
}

/** The document as UBL, with the stamp's parts when given (the hash is taken without them). */
export function ublDocument(data: EInvoiceData, stamp: StampParts = {}): XmlElement {
  const figures = figuresOf(data);
  const { date, time } = riyadhDateTime(data.issued_at);
  const attachment = (id: string, text: string) =>
    el(
      "cac:AdditionalDocumentReference",
      {},
      el("cbc:ID", {}, id),
      el("cac:Attachment", {}, el("cbc:EmbeddedDocumentBinaryObject", { mimeCode: "text/plain" }, text)),
    );
  const note = data.kind !== "invoice";
  return el(
    "Invoice",
    { xmlns: NS.invoice, "xmlns:cac": NS.cac, "xmlns:cbc": NS.cbc, "xmlns:ext": NS.ext },
    stamp.extension ? el("ext:UBLExtensions", {}, stamp.extension) : null,
    el("cbc:ProfileID", {}, "reporting:1.0"),
    el("cbc:ID", {}, data.number),
    el("cbc:UUID", {}, data.uuid),
    el("cbc:IssueDate", {}, date),
    el("cbc:IssueTime", {}, time),
    el("cbc:InvoiceTypeCode", { name: TRANSACTION_CODES[data.transaction] }, TYPE_CODES[data.kind]),
    el("cbc:DocumentCurrencyCode", {}, "SAR"),
    el("cbc:TaxCurrencyCode", {}, "SAR"),
    el("cac:OrderReference", {}, el("cbc:ID", {}, data.order_number)),
    note && data.billing_reference
      ? el("cac:BillingReference", {}, el("cac:InvoiceDocumentReference", {}, el("cbc:ID", {}, data.billing_reference)))
      : null,
    el("cac:AdditionalDocumentReference", {}, el("cbc:ID", {}, "ICV"), el("cbc:UUID", {}, String(data.icv))),
    attachment("PIH", data.pih),
    stamp.qr ? attachment("QR", stamp.qr) : null,
    stamp.extension
      ? el(
          "cac:Signature",
          {},
          el("cbc:ID", {}, "urn:oasis:names:specification:ubl:signature:Invoice"),
          el("cbc:SignatureMethod", {}, "urn:oasis:names:specification:ubl:dsig:enveloped:xades"),
        )
      : null,
    el("cac:AccountingSupplierParty", {}, party(data.seller, "seller")),
    el("cac:AccountingCustomerParty", {}, data.buyer ? party(data.buyer, "buyer") : el("cac:Party", {})),
    data.supply_date ? el("cac:Delivery", {}, el("cbc:ActualDeliveryDate", {}, data.supply_date)) : null,
    el(
      "cac:PaymentMeans",
      {},
      el("cbc:PaymentMeansCode", {}, data.payment_means),
      note && data.reason ? el("cbc:InstructionNote", {}, data.reason) : null,
    ),
    figures.allowance > 0
      ? el(
          "cac:AllowanceCharge",
          {},
          el("cbc:ChargeIndicator", {}, "false"),
          el("cbc:AllowanceChargeReason", {}, "discount"),
          amount("cbc:Amount", figures.allowance),
          taxCategory("cac:TaxCategory", data.vat_rate, true),
        )
      : null,
    el("cac:TaxTotal", {}, amount("cbc:TaxAmount", figures.vat)),
    el(
      "cac:TaxTotal",
      {},
      amount("cbc:TaxAmount", figures.vat),
      el(
        "cac:TaxSubtotal",
        {},
        amount("cbc:TaxableAmount", figures.tax_exclusive),
        amount("cbc:TaxAmount", figures.vat),
        taxCategory("cac:TaxCategory", data.vat_rate, true),
      ),
    ),
    el(
      "cac:LegalMonetaryTotal",
      {},
      amount("cbc:LineExtensionAmount", figures.line_extension),
      amount("cbc:TaxExclusiveAmount", figures.tax_exclusive),
      amount("cbc:TaxInclusiveAmount", figures.tax_inclusive),
      amount("cbc:AllowanceTotalAmount", figures.allowance),
      amount("cbc:PrepaidAmount", 0),
      figures.rounding !== 0 ? amount("cbc:PayableRoundingAmount", figures.rounding) : null,
      amount("cbc:PayableAmount", figures.payable),
    ),
    figures.lines.map((l, i) =>
      el(
        "cac:InvoiceLine",
        {},
        el("cbc:ID", {}, String(i + 1)),
        el("cbc:InvoicedQuantity", { unitCode: "PCE" }, l.quantity.toFixed(6)),
        amount("cbc:LineExtensionAmount", l.net),
        el("cac:TaxTotal", {}, amount("cbc:TaxAmount", l.vat), amount("cbc:RoundingAmount", l.with_vat)),
        el("cac:Item", {}, el("cbc:Name", {}, l.name), taxCategory("cac:ClassifiedTaxCategory", data.vat_rate, false)),
        el("cac:Price", {}, amount("cbc:PriceAmount", l.price)),
      ),
    ),
  );
}
