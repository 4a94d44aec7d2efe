// E-invoicing phase 2 (ZATCA's Fatoora): the shop's unit, its onboarding and its documents'
// reporting, as the console's API answers them.
// Part of the contract between the storefront and the backend: both sides import it.
import * as v from "valibot";
import { latinDigits, type InputField, type InputMessages } from "./inputs";

/** Which ZATCA gateway the shop talks to: the developer portal (and the offline stand-in), the simulation, or production (ZATCA_API_BASE). */
export const EINVOICE_ENVIRONMENTS = ["developer-portal", "simulation", "production"] as const;
export type EInvoiceEnvironment = (typeof EINVOICE_ENVIRONMENTS)[number];

/** Onboarding: registered (keys and CSR made) → compliance (CSID issued, checks running) → production. */
export type EInvoiceUnitStatus = "unregistered" | "registered" | "compliance" | "production";

export const EINVOICE_STATUSES = [
  "pending",
  "reported",
  "reported_with_warnings",
  "cleared",
  "cleared_with_warnings",
  "rejected",
  "superseded",
] as const;
export type EInvoiceStatus = (typeof EINVOICE_STATUSES)[number];

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
export function registrationInput(m: InputMessages) {
  const text = (field: InputField, max: number) =>
    v.pipe(
      v.string(m.required(field)),
      v.trim(),
      v.nonEmpty(m.required(field)),
      v.maxLength(max, m.maxLength(field, max)),
    );
  const digits = (field: InputField, n: number) =>
    v.pipe(
      v.string(m.required(field)),
      v.transform((s) => latinDigits(s).trim()),
      v.regex(new RegExp(`^\\d{${n}}$`), m.invalid(field)),
    );
  return v.object({
    crn: digits("crn", 10),
    branch: text("branch", 60),
    industry: text("industry", 60),
    address: v.object({
      street: text("street", 120),
      building_number: digits("building_number", 4),
      additional_number: digits("additional_number", 4),
      district: text("district", 80),
      city: text("city", 80),
      postal_code: digits("postal_code", 5),
    }),
  });
}

/** The Fatoora portal's one-time password: six digits. */
export const otpInput = (m: InputMessages) =>
  v.object({
    otp: v.pipe(
      v.string(m.required("otp")),
      v.transform((s) => latinDigits(s).trim()),
      v.regex(/^\d{6}$/, m.invalid("otp")),
    ),
  });
