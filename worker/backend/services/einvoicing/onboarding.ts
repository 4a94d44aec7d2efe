import type { Env } from "../../env";
import {
  COMPLIANCE_SAMPLES,
  type ComplianceSample,
  type EInvoiceEnvironment,
  type EInvoiceRegistration,
} from "../../../../contract/einvoicing";
import { sellerSettingsOf } from "../shared/settings";
import { sellerOf } from "../orders/invoices";
import { msg, type MessageKey } from "../../messages";
import { say } from "../../../../contract/server/i18n";
import { certificateOfToken, readCertificate } from "./certificate";
import { loadUnit, type UnitRow } from "./chain";
import { buildCsr, generateKeyPair } from "./csr";
import { zatcaOf } from "./reporting";
import { openSecret, openText, sealSecret, sealText } from "./secrets";
import { FIRST_PIH, stampDocument } from "./stamp";
import type { EInvoiceData } from "./ubl";
import { ZATCA_BASES, type CsidResult, type ZatcaCredentials, type ZatcaCsid } from "./zatca-api";

/**
 * Onboarding the shop's e-invoicing unit (ZATCA's EGS) from the console, owner only:
 * register (a key pair and the CSR with the fields ZATCA requires, from the seller's settings and
 * the registration), the compliance CSID for the Fatoora portal's OTP, ZATCA's six compliance
 * checks with sample documents made from the shop's own details, then the production CSID, from
 * which every document is stamped. The key is generated here and stored sealed; it never leaves.
 */

export class OnboardingError extends Error {
  constructor(
    readonly status: 409 | 422 | 502 | 503,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The gateway this deployment talks to, by ZATCA_API_BASE; the stand-in is the developer portal's. */
export function environmentOf(env: Pick<Env, "ZATCA_API_BASE">): EInvoiceEnvironment {
  const base = env.ZATCA_API_BASE?.trim().replace(/\/+$/, "");
  const found = (Object.entries(ZATCA_BASES) as [EInvoiceEnvironment, string][]).find(([, url]) => url === base);
  return found?.[0] ?? "developer-portal";
}

async function sellerNames(env: Env) {
  const seller = sellerOf(env, "en", await sellerSettingsOf(env, null));
  return seller;
}

/**
 * Saves the registration. Before production it (re)makes the key pair and CSR; in production it
 * only corrects the details documents carry (the certificate stays: its fields were the CSR's).
 */
export async function register(env: Env, registration: EInvoiceRegistration, by: string): Promise<UnitRow> {
  const db = env.DB;
  const unit = await loadUnit(db);
  const now = new Date().toISOString();
  if (unit?.status === "production") {
    await db
      .prepare("UPDATE einvoice_units SET registration = ?, updated_at = ?, updated_by = ? WHERE id = 1")
      .bind(JSON.stringify(registration), now, by)
      .run();
    return (await loadUnit(db))!;
  }
  const seller = await sellerNames(env);
  const serial = crypto.randomUUID();
  const environment = environmentOf(env);
  const key = generateKeyPair();
  const a = registration.address;
  const csr = buildCsr(key.privateKey, {
    environment,
    common_name: `${registration.branch}-${seller.vat_number}`.slice(0, 64),
    organization_name: seller.name_en.slice(0, 64),
    organization_unit: registration.branch,
    vat_number: seller.vat_number,
    egs: { solution: "SouqEdge", model: "Workers", serial },
    invoice_type: "1100",
    location: `${a.building_number} ${a.street}, ${a.district}, ${a.city} ${a.postal_code}`.slice(0, 200),
    industry: registration.industry,
  });
  await db
    .prepare(
      `INSERT INTO einvoice_units (id, serial, registration, environment, status, private_key, csr, updated_at, updated_by)
       VALUES (1, ?, ?, ?, 'registered', ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET serial = excluded.serial, registration = excluded.registration,
         environment = excluded.environment, status = 'registered', private_key = excluded.private_key, csr = excluded.csr,
         compliance_token = NULL, compliance_secret = NULL, compliance_request_id = NULL, compliance_passed = '[]',
         updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    )
    .bind(
      `1-SouqEdge|2-Workers|3-${serial}`,
      JSON.stringify(registration),
      environment,
      await sealSecret(env, Uint8Array.from(key.privateKey)),
      csr,
      now,
      by,
    )
    .run();
  return (await loadUnit(db))!;
}

function refused(result: Exclude<CsidResult, { outcome: "issued" }>): never {
  const message = result.errors.map((e) => e.message).join(" ") || `ZATCA answered ${result.status}.`;
  throw new OnboardingError(result.outcome === "retry" ? 503 : 422, result.errors[0]?.code || result.outcome, message);
}

/** The compliance CSID for the portal's OTP, then ZATCA's compliance checks. */
export async function requestCompliance(env: Env, otp: string, by: string): Promise<UnitRow> {
  const unit = await loadUnit(env.DB);
  if (!unit?.csr || unit.status === "production")
    throw new OnboardingError(409, "not-registered", "Register the unit first.");
  const api = zatcaOf(env);
  if (!api) throw new OnboardingError(503, "unconfigured", "ZATCA_API_BASE is not set.");
  const result = await api.complianceCsid(unit.csr, otp);
  if (result.outcome !== "issued") refused(result);
  await env.DB.prepare(
    `UPDATE einvoice_units SET status = 'compliance', compliance_token = ?, compliance_secret = ?, compliance_request_id = ?,
       compliance_passed = '[]', updated_at = ?, updated_by = ? WHERE id = 1`,
  )
    .bind(
      result.csid.binary_security_token,
      await sealText(env, result.csid.secret),
      result.csid.request_id,
      new Date().toISOString(),
      by,
    )
    .run();
  return runComplianceChecks(env);
}

/** Both languages, as ZATCA's samples write names: "Arabic | English". */
const both = (key: MessageKey) => `${say("ar", msg(key))} | ${say("en", msg(key))}`;

/** The standard samples' buyer: ZATCA's sample company (its published test VAT number). */
const sampleBuyer = () => ({
  name: both("einvoicing.samples.buyer"),
  vat_number: "399999999800003",
  address: {
    street: both("einvoicing.samples.street"),
    building_number: "1111",
    additional_number: "2222",
    district: both("einvoicing.samples.district"),
    city: both("einvoicing.samples.city"),
    postal_code: "12222",
    country: "SA",
  },
});

/** The six sample documents, made from the shop's own seller details, chained among themselves. */
export async function complianceSamples(env: Env, unit: UnitRow): Promise<[ComplianceSample, EInvoiceData][]> {
  const seller = await sellerNames(env);
  const registration = JSON.parse(unit.registration) as EInvoiceRegistration;
  const issued = new Date().toISOString();
  return COMPLIANCE_SAMPLES.map((sample, i) => {
    const standard = sample.startsWith("standard");
    const kind = sample.endsWith("credit_note")
      ? "credit_note"
      : sample.endsWith("debit_note")
        ? "debit_note"
        : "invoice";
    const prefix = kind === "invoice" ? "INV" : kind === "credit_note" ? "CN" : "DN";
    return [
      sample,
      {
        kind,
        transaction: standard ? "standard" : "simplified",
        number: `${prefix}-CHK-${i + 1}`,
        uuid: crypto.randomUUID(),
        issued_at: issued,
        icv: i + 1,
        pih: FIRST_PIH,
        order_number: "CHK-1",
        seller: {
          name: seller.name_ar !== seller.name_en ? `${seller.name_ar} | ${seller.name_en}` : seller.name_en,
          vat_number: seller.vat_number,
          crn: registration.crn,
          address: { ...registration.address, country: "SA" },
        },
        buyer: standard ? sampleBuyer() : null,
        lines: [{ name: both("einvoicing.samples.product"), quantity: 1, total: 11_500 }],
        discount: 0,
        total: 11_500,
        vat_rate: 0.15,
        billing_reference: kind === "invoice" ? null : `INV-CHK-${standard ? 1 : 4}`,
        reason: kind === "invoice" ? null : both("einvoicing.samples.reason"),
        payment_means: "10",
        supply_date: standard ? issued.slice(0, 10) : null,
      } satisfies EInvoiceData,
    ];
  });
}

/** Sends each sample not yet passed to ZATCA's compliance check; records those that pass. */
export async function runComplianceChecks(env: Env): Promise<UnitRow> {
  const unit = await loadUnit(env.DB);
  if (!unit?.compliance_token || !unit.compliance_secret || !unit.private_key)
    throw new OnboardingError(409, "no-compliance-csid", "Get the compliance certificate first.");
  const api = zatcaOf(env)!;
  const credentials: ZatcaCredentials = {
    binary_security_token: unit.compliance_token,
    secret: await openText(env, unit.compliance_secret),
  };
  const key = {
    privateKey: await openSecret(env, unit.private_key),
    certificate: certificateOfToken(unit.compliance_token),
  };
  const passed = new Set(JSON.parse(unit.compliance_passed) as ComplianceSample[]);
  let pih = FIRST_PIH;
  const failures: string[] = [];
  for (const [sample, data] of await complianceSamples(env, unit)) {
    const stamped = stampDocument({ ...data, pih }, key, new Date().toISOString().slice(0, 19));
    pih = stamped.hash;
    if (passed.has(sample)) continue;
    const result = await api.complianceCheck(credentials, {
      uuid: data.uuid,
      invoice_hash: stamped.hash,
      xml: stamped.xml,
    });
    if (result.outcome === "accepted" || result.outcome === "accepted_with_warnings") passed.add(sample);
    else failures.push(`${sample}: ${result.errors.map((e) => `${e.code} ${e.message}`).join("; ") || result.status}`);
  }
  await env.DB.prepare("UPDATE einvoice_units SET compliance_passed = ? WHERE id = 1")
    .bind(JSON.stringify(COMPLIANCE_SAMPLES.filter((s) => passed.has(s))))
    .run();
  if (failures.length) console.error(JSON.stringify({ level: "error", event: "einvoice.compliance_failed", failures }));
  return (await loadUnit(env.DB))!;
}

/** The production CSID: from here every new document is stamped, chained and reported. */
export async function requestProduction(env: Env, by: string): Promise<UnitRow> {
  const unit = await loadUnit(env.DB);
  if (!unit?.compliance_token || !unit.compliance_secret || !unit.compliance_request_id)
    throw new OnboardingError(409, "no-compliance-csid", "Get the compliance certificate first.");
  if (JSON.parse(unit.compliance_passed).length < COMPLIANCE_SAMPLES.length)
    throw new OnboardingError(409, "compliance-incomplete", "Pass ZATCA's six compliance checks first.");
  const api = zatcaOf(env)!;
  const result = await api.productionCsid(
    { binary_security_token: unit.compliance_token, secret: await openText(env, unit.compliance_secret) },
    unit.compliance_request_id,
  );
  if (result.outcome !== "issued") refused(result);
  return keepProduction(env, result.csid, by);
}

/** Renews the production certificate with the portal's OTP (a new CSR of the same key). */
export async function renewProduction(env: Env, otp: string, by: string): Promise<UnitRow> {
  const unit = await loadUnit(env.DB);
  if (unit?.status !== "production" || !unit.production_token || !unit.production_secret || !unit.csr)
    throw new OnboardingError(409, "not-in-production", "The unit is not in production.");
  const api = zatcaOf(env)!;
  const result = await api.renewProductionCsid(
    { binary_security_token: unit.production_token, secret: await openText(env, unit.production_secret) },
    unit.csr,
    otp,
  );
  if (result.outcome !== "issued") refused(result);
  return keepProduction(env, result.csid, by);
}

/**
 * Keeps a production CSID (issued or renewed): its token, its secret sealed, and when its
 * certificate ends. The first one sets where the chain starts: documents issued before stay phase 1.
 */
async function keepProduction(env: Env, csid: ZatcaCsid, by: string): Promise<UnitRow> {
  const expires = readCertificate(certificateOfToken(csid.binary_security_token)).notAfter.toISOString();
  await env.DB.prepare(
    `UPDATE einvoice_units SET status = 'production', production_token = ?, production_secret = ?, certificate_expires_at = ?,
       starts_after = CASE WHEN status = 'production' THEN starts_after ELSE (SELECT COALESCE(MAX(id), 0) FROM tax_documents) END,
       updated_at = ?, updated_by = ? WHERE id = 1`,
  )
    .bind(csid.binary_security_token, await sealText(env, csid.secret), expires, new Date().toISOString(), by)
    .run();
  return (await loadUnit(env.DB))!;
}
