// E-invoicing phase 2 (ZATCA's Fatoora): the shop's unit, its onboarding and its documents'
// reporting, as the console's API answers them.
// Part of the contract between the storefront and the backend: both sides import it.
import * as v from "valibot";

/** Which ZATCA gateway the shop talks to: the developer portal (and the offline stand-in), the simulation, or production (ZATCA_API_BASE). */
export const EINVOICE_ENVIRONMENTS = ["developer-portal", "simulation", "production"] as const;
export type EInvoiceEnvironment = (typeof EINVOICE_ENVIRONMENTS)[number];

/** Onboarding: registered (keys and CSR made) → compliance (CSID issued, checks running) → production. */
export type EInvoiceUnitStatus = "unregistered" | "registered" | "compliance" | "production";

export type EInvoiceStatus =
  | "pending"
  | "reported"
  | "reported_with_warnings"
  | "cleared"
  | "cleared_with_warnings"
  | "rejected"
  | "superseded";

/** The six documents ZATCA's compliance checks ask an EGS of type 1100 to pass. */
export const COMPLIANCE_SAMPLES = [
  "standard_invoice",
  "standard_credit_note",
  "standard_debit_note",
  "simplified_invoice",
  "simplified_credit_note",
  "simplified_debit_note",
] as const;
export type ComplianceSample = (typeof COMPLIANCE_SAMPLES)[number];

/** A Saudi national address, as ZATCA's rules check it. */
export interface EInvoiceAddress {
  street: string;
  building_number: string;
  additional_number: string;
  district: string;
  city: string;
  postal_code: string;
}

/** What the shop registers its unit with (the CSR's fields and the seller's part of every document). */
export interface EInvoiceRegistration {
  /** Commercial registration number, 10 digits. */
  crn: string;
  /** The branch or unit name (the CSR's organisation unit). */
  branch: string;
  /** The business category (the CSR's industry). */
  industry: string;
  address: EInvoiceAddress;
}

export interface EInvoiceMessage {
  type: "error" | "warning" | "info";
  code: string;
  category: string;
  message: string;
}

/** GET /admin/einvoicing: the unit and the reporting queue at a glance. */
export interface EInvoiceOverview {
  environment: EInvoiceEnvironment;
  status: EInvoiceUnitStatus;
  registration: EInvoiceRegistration | null;
  /** The EGS serial "1-…|2-…|3-…". */
  serial: string | null;
  compliance_passed: ComplianceSample[];
  certificate_expires_at: string | null;
  /** Days left on the production certificate; the console warns from 30. */
  certificate_days_left: number | null;
  counts: Record<EInvoiceStatus, number>;
  /** Simplified documents not yet reported whose 24 hours are running out (an alert). */
  overdue: number;
  documents: EInvoiceListItem[];
}

export interface EInvoiceListItem {
  id: number;
  number: string;
  kind: "invoice" | "credit_note" | "debit_note";
  order_number: string;
  transaction: "simplified" | "standard";
  icv: number;
  status: EInvoiceStatus;
  attempts: number;
  created_at: string;
  answered_at: string | null;
  messages: EInvoiceMessage[];
}

/** The registration form's rules, shared by the console's form and the API. */
export const registrationSchema = v.object({
  crn: v.pipe(v.string(), v.trim(), v.regex(/^\d{10}$/, "crn")),
  branch: v.pipe(v.string(), v.trim(), v.minLength(1, "branch"), v.maxLength(60, "branch")),
  industry: v.pipe(v.string(), v.trim(), v.minLength(1, "industry"), v.maxLength(60, "industry")),
  address: v.object({
    street: v.pipe(v.string(), v.trim(), v.minLength(1, "address.street"), v.maxLength(120, "address.street")),
    building_number: v.pipe(v.string(), v.trim(), v.regex(/^\d{4}$/, "address.building_number")),
    additional_number: v.pipe(v.string(), v.trim(), v.regex(/^\d{4}$/, "address.additional_number")),
    district: v.pipe(v.string(), v.trim(), v.minLength(1, "address.district"), v.maxLength(80, "address.district")),
    city: v.pipe(v.string(), v.trim(), v.minLength(1, "address.city"), v.maxLength(80, "address.city")),
    postal_code: v.pipe(v.string(), v.trim(), v.regex(/^\d{5}$/, "address.postal_code")),
  }),
});

/** The Fatoora portal's one-time password: six digits. */
export const otpSchema = v.object({ otp: v.pipe(v.string(), v.trim(), v.regex(/^\d{6}$/, "otp")) });
