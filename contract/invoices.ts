// Tax documents as the backend answers them: the simplified tax invoice of a paid order
// and the credit note of a refund, with ZATCA's phase-1 QR payload.
// Part of the contract between the storefront and the backend: both sides import it.
import type { EInvoiceStatus } from "./einvoicing";

export type TaxDocumentKind = "invoice" | "credit_note" | "debit_note";

/** The seller as the shop's configuration names it (SELLER_* variables). */
export interface TaxSeller {
  name_en: string;
  name_ar: string;
  /** 15 digits, starting and ending with 3. */
  vat_number: string;
  address_en: string | null;
  address_ar: string | null;
}

/**
 * A document's line, in minor units (halalas). `line_total` includes VAT; `vat` is the line's share
 * of the document's VAT, so the lines' VAT and totals add up exactly to the document's.
 * `unit_price` excludes VAT, rounded to the halala (informational: `line_total - vat` is exact).
 */
export interface TaxDocumentLine {
  name: string;
  quantity: number;
  unit_price: number;
  vat: number;
  line_total: number;
}

export interface TaxDocument {
  kind: TaxDocumentKind;
  /** INV-000001 or CN-000001: sequential per kind. */
  number: string;
  issued_at: string;
  order_number: string;
  /** For a credit note: the invoice it corrects. */
  invoice_number: string | null;
  seller: TaxSeller;
  /** The buyer as delivered to: the national short address when the order has one; a business buyer's company and VAT number. */
  buyer: {
    name: string;
    city: string;
    short_address?: string | null;
    company?: string | null;
    vat_number?: string | null;
  };
  lines: TaxDocumentLine[];
  /** A credit note's reason for issue: what staff typed, or the shopper's reasons for a return. */
  reason: string | null;
  /** Excluding VAT: the lines, shipping and discount before VAT. */
  subtotal: number;
  /** Including VAT, as the order charged it. */
  discount: number;
  shipping: number;
  vat: number;
  /** Including VAT. */
  total: number;
  vat_rate: number;
  currency: string;
  /**
   * ZATCA's QR: base64 TLV. Tags 1–5 (seller name, VAT number, timestamp, total, VAT) until the
   * document is stamped; then tags 1–9 (adding the invoice hash, the signature, the public key and,
   * on a simplified document, the certificate's signature).
   */
  qr: string;
  /** Simplified (a shopper) or standard (a business buyer with a VAT number: cleared by ZATCA first). */
  transaction: "simplified" | "standard";
  /** The signed UBL document, once the shop's e-invoicing unit has stamped it; null before. */
  einvoice: { uuid: string; icv: number; status: EInvoiceStatus } | null;
}

/** What an order answer carries of its documents, for links. */
export interface OrderDocuments {
  invoice_number: string | null;
  credit_notes: { id: number; number: string }[];
  /** The order's total raised after its invoice (a charge agreed and collected), with why. */
  debit_notes: { id: number; number: string }[];
}
