import type { Env } from "../../env";
import { base64OfText, textOfBase64, type ZatcaEnvironment } from "./csr";
import { ZATCA_STAND_IN_BASE, zatcaStandIn, type ZatcaCheck } from "./zatca-stand-in";

/**
 * ZATCA's Fatoora e-invoicing API (phase 2), as ZATCA documents it: the Integration Sandbox's
 * swagger files ("e-Invoicing Sandbox Release (2.1.0)", one per API: Compliance CSID, Production
 * CSID onboarding, renewal, compliance invoice, reporting, clearance), the Developer Portal User
 * Manual (v3) and ZATCA's answers on its developer community (zatca1.discourse.group).
 * test/fixtures/zatca-api/README.md lists the documented requests and answers the tests hold the
 * adapter to.
 *
 * Every call: JSON, `Accept-Version: V2` (anything else is 406), `Accept-Language: en`.
 *
 * - complianceCsid(csr, otp): POST /compliance, header OTP, body { csr } (base64 of the CSR's PEM)
 *   → { requestID, dispositionMessage "ISSUED", binarySecurityToken, secret, errors }.
 * - complianceCheck(complianceCsid, document): POST /compliance/invoices, Basic auth
 *   binarySecurityToken:secret, body { invoiceHash, uuid, invoice } (invoice: base64 of the XML).
 * - productionCsid(complianceCsid, requestId): POST /production/csids, body { compliance_request_id }.
 *   Refused (400, Missing-ComplianceSteps) until the compliance checks passed.
 * - renewProductionCsid(productionCsid, csr, otp): PATCH /production/csids, header OTP, body { csr }.
 * - report(productionCsid, document): POST /invoices/reporting/single, `Clearance-Status: 0`
 *   (simplified documents).
 * - clear(productionCsid, document): POST /invoices/clearance/single, `Clearance-Status: 1`
 *   (standard documents); the answer's clearedInvoice is the cleared XML, the legal copy.
 *
 * The Basic username is the binarySecurityToken verbatim (it is already base64: of the base64 DER
 * certificate text), the password the secret.
 *
 * What an invoice call yields (SubmissionResult.outcome), by HTTP status:
 * - 200 → "accepted" (REPORTED / CLEARED, validationResults PASS);
 * - 202 → "accepted_with_warnings" (reported or cleared; `warnings` says what to fix next time);
 * - 400 → "rejected" (NOT_REPORTED / NOT_CLEARED; `errors`);
 * - 409 (reporting) and 208 (clearance) → "duplicate": ZATCA already reported or cleared this
 *   document earlier (its duplicate check; ZATCA: treat as reported, stop resending);
 * - 303 (clearance) → "clearance_off": clearance is switched off; report the document instead;
 * - 401 → "unauthorized" (bad or absent CSID: a configuration problem, not the invoice's);
 * - 429, 5xx, no answer, time-out, or an answer that is not ZATCA's → "retry".
 * Any other status (406: our own bug) → "retry" too would loop for ever, so it is "rejected" with
 * an error naming the status.
 *
 * The adapter never retries itself: the caller's queue does, on "retry".
 */

/** ZATCA's three gateways. */
export const ZATCA_BASES: Record<ZatcaEnvironment, string> = {
  "developer-portal": "https://gw-fatoora.zatca.gov.sa/e-invoicing/developer-portal",
  simulation: "https://gw-fatoora.zatca.gov.sa/e-invoicing/simulation",
  production: "https://gw-fatoora.zatca.gov.sa/e-invoicing/core",
};

export const ZATCA_PATHS = {
  compliance: "/compliance",
  complianceInvoices: "/compliance/invoices",
  productionCsids: "/production/csids",
  reporting: "/invoices/reporting/single",
  clearance: "/invoices/clearance/single",
} as const;

/** A CSID: the certificate token and its secret, the Basic login of the invoice calls. */
export interface ZatcaCredentials {
  binary_security_token: string;
  secret: string;
}

export interface ZatcaCsid extends ZatcaCredentials {
  /** requestID: for a compliance CSID, the compliance_request_id of the production CSID call. */
  request_id: string;
  /** "ISSUED" when issued. */
  disposition: string;
}

/** One message of validationResults (or of a CSID call's `errors`), as ZATCA words it. */
export interface ZatcaMessage {
  code: string;
  message: string;
  category: string;
}

export type CsidResult =
  | { outcome: "issued"; status: number; csid: ZatcaCsid }
  /** Refused: bad or missing OTP, a CSR ZATCA will not sign, compliance steps missing. */
  | { outcome: "rejected"; status: number; errors: ZatcaMessage[] }
  | { outcome: "unauthorized"; status: number; errors: ZatcaMessage[] }
  | { outcome: "retry"; status: number; errors: ZatcaMessage[] };

export type SubmissionOutcome =
  "accepted" | "accepted_with_warnings" | "rejected" | "duplicate" | "clearance_off" | "retry" | "unauthorized";

export interface SubmissionResult {
  outcome: SubmissionOutcome;
  /** The HTTP status; 0 when nothing answered (network failure, time-out). */
  status: number;
  /** reportingStatus or clearanceStatus: REPORTED, NOT_REPORTED, CLEARED, NOT_CLEARED; null when absent. */
  zatca_status: string | null;
  info: ZatcaMessage[];
  warnings: ZatcaMessage[];
  errors: ZatcaMessage[];
  /** Clearance (and standard compliance checks): the cleared XML, decoded from clearedInvoice. */
  cleared_xml?: string;
}

/** A signed document to send: its UUID (cbc:UUID), its hash (base64 SHA-256), its XML text. */
export interface SubmittedDocument {
  uuid: string;
  invoice_hash: string;
  xml: string;
}

export interface ZatcaApi {
  /** The base URL calls go to (a ZATCA gateway, or the stand-in's). */
  readonly base: string;
  complianceCsid(csr: string, otp: string): Promise<CsidResult>;
  complianceCheck(compliance: ZatcaCredentials, document: SubmittedDocument): Promise<SubmissionResult>;
  productionCsid(compliance: ZatcaCredentials, complianceRequestId: string): Promise<CsidResult>;
  renewProductionCsid(production: ZatcaCredentials, csr: string, otp: string): Promise<CsidResult>;
  report(production: ZatcaCredentials, document: SubmittedDocument): Promise<SubmissionResult>;
  clear(production: ZatcaCredentials, document: SubmittedDocument): Promise<SubmissionResult>;
}

export interface ZatcaApiConfig {
  /** One of ZATCA_BASES, or the stand-in's. */
  apiBase: string;
  /** Default: the runtime's fetch. The stand-in plugs in here. */
  fetcher?: typeof fetch;
  /** Per call; ZATCA's gateway has been seen to hold requests for minutes. Default 60 s. */
  timeoutMs?: number;
}

const TIMEOUT_MS = 60_000;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const str = (value: unknown) => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");

/** ZATCA's messages (validationResults' lists, a CSID call's `errors`), read loosely: code and category may be null. */
function messages(value: unknown): ZatcaMessage[] {
  if (!Array.isArray(value)) return [];
  return value.map((m) => {
    const o = obj(m);
    return { code: str(o.code), message: str(o.message), category: str(o.category) };
  });
}

/** The Basic login of a CSID: the token verbatim (already base64), then the secret. */
export const basicAuth = (credentials: ZatcaCredentials) =>
  `Basic ${btoa(`${credentials.binary_security_token}:${credentials.secret}`)}`;

/** The body ZATCA's invoice calls take. */
export const invoiceBody = (document: SubmittedDocument) => ({
  invoiceHash: document.invoice_hash,
  uuid: document.uuid,
  invoice: base64OfText(document.xml),
});

interface Answer {
  status: number;
  body: Json | null;
  text: string;
}

export function zatcaApi(config: ZatcaApiConfig): ZatcaApi {
  const fetcher = config.fetcher ?? fetch;
  const base = config.apiBase.replace(/\/+$/, "");
  const timeoutMs = config.timeoutMs ?? TIMEOUT_MS;

  /** The answer, or null when nothing answered. */
  async function call(
    method: "POST" | "PATCH",
    path: string,
    body: Json,
    headers: Record<string, string>,
  ): Promise<Answer | null> {
    let res: Response;
    try {
      res = await fetcher(`${base}${path}`, {
        method,
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "Accept-Language": "en",
          "Accept-Version": "V2",
          ...headers,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch {
      return null;
    }
    const text = await res.text().catch(() => "");
    let parsed: Json | null = null;
    try {
      const value: unknown = JSON.parse(text);
      parsed = value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : null;
    } catch {
      parsed = null;
    }
    return { status: res.status, body: parsed, text };
  }

  const transient = (status: number) => status === 0 || status === 429 || status >= 500;
  const unreadable = (status: number, text: string): ZatcaMessage => ({
    code: String(status || "no-answer"),
    message: text.slice(0, 200) || (status ? `ZATCA answered HTTP ${status}.` : "ZATCA did not answer."),
    category: "HTTP",
  });

  /** A CSID call's answer (compliance, production, renewal). */
  function csidResult(answer: Answer | null): CsidResult {
    if (!answer) return { outcome: "retry", status: 0, errors: [unreadable(0, "")] };
    const { status, body, text } = answer;
    if (transient(status)) {
      const errors = messages(body?.errors);
      return { outcome: "retry", status, errors: errors.length ? errors : [unreadable(status, text)] };
    }
    if (status === 401) return { outcome: "unauthorized", status, errors: [unreadable(status, "Unauthorized")] };
    const token = str(body?.binarySecurityToken);
    const secret = str(body?.secret);
    const disposition = str(body?.dispositionMessage);
    if (status === 200 && token && secret && disposition === "ISSUED")
      return {
        outcome: "issued",
        status,
        csid: { request_id: str(body?.requestID), disposition, binary_security_token: token, secret },
      };
    const errors = messages(body?.errors);
    if (!errors.length && disposition) errors.push({ code: disposition, message: disposition, category: "CSID" });
    if (!errors.length && status === 200) return { outcome: "retry", status, errors: [unreadable(status, text)] };
    return { outcome: "rejected", status, errors: errors.length ? errors : [unreadable(status, text)] };
  }

  /** An invoice call's answer (compliance check, reporting, clearance). */
  function submissionResult(answer: Answer | null, kind: "reporting" | "clearance" | "compliance"): SubmissionResult {
    const result = (outcome: SubmissionOutcome, status: number, extra: Partial<SubmissionResult> = {}) => ({
      outcome,
      status,
      zatca_status: null,
      info: [],
      warnings: [],
      errors: [],
      ...extra,
    });
    if (!answer) return result("retry", 0, { errors: [unreadable(0, "")] });
    const { status, body, text } = answer;
    if (transient(status)) return result("retry", status, { errors: [unreadable(status, text)] });
    if (status === 401) return result("unauthorized", status, { errors: [unreadable(status, "Unauthorized")] });
    if (status === 303 && kind === "clearance")
      return result("clearance_off", status, {
        info: [{ code: "303", message: str(body?.message) || "Clearance is deactivated.", category: "HTTP" }],
      });
    const validation = body ? obj(body.validationResults) : null;
    if (!body || !validation || !("validationResults" in body)) {
      // Not ZATCA's answer shape: a 4xx other than the above is our own fault (406: the version header).
      if (status >= 400 && status < 500) return result("rejected", status, { errors: [unreadable(status, text)] });
      return result("retry", status, { errors: [unreadable(status, text)] });
    }
    const zatcaStatus = str(body.clearanceStatus) || str(body.reportingStatus) || null;
    const read = {
      zatca_status: zatcaStatus,
      info: messages(validation.infoMessages),
      warnings: messages(validation.warningMessages),
      // The swagger's schema spells it erroMessages; the live service answers errorMessages.
      errors: messages(validation.errorMessages ?? validation.erroMessages),
    };
    const cleared = str(body.clearedInvoice);
    const clearedXml = cleared ? { cleared_xml: textOfBase64(cleared) } : {};
    if (status === 200 || status === 202) {
      const failed = zatcaStatus === "NOT_REPORTED" || zatcaStatus === "NOT_CLEARED" || read.errors.length > 0;
      if (failed) return result("rejected", status, read);
      const outcome = status === 202 || read.warnings.length ? "accepted_with_warnings" : "accepted";
      return result(outcome, status, { ...read, ...clearedXml });
    }
    if ((status === 409 && kind === "reporting") || (status === 208 && kind === "clearance"))
      return result("duplicate", status, read);
    return result("rejected", status, read.errors.length ? read : { ...read, errors: [unreadable(status, text)] });
  }

  return {
    base,
    async complianceCsid(csr, otp) {
      return csidResult(await call("POST", ZATCA_PATHS.compliance, { csr }, { OTP: otp }));
    },
    async complianceCheck(compliance, document) {
      const answer = await call("POST", ZATCA_PATHS.complianceInvoices, invoiceBody(document), {
        Authorization: basicAuth(compliance),
      });
      return submissionResult(answer, "compliance");
    },
    async productionCsid(compliance, complianceRequestId) {
      const answer = await call(
        "POST",
        ZATCA_PATHS.productionCsids,
        { compliance_request_id: complianceRequestId },
        { Authorization: basicAuth(compliance) },
      );
      return csidResult(answer);
    },
    async renewProductionCsid(production, csr, otp) {
      const answer = await call(
        "PATCH",
        ZATCA_PATHS.productionCsids,
        { csr },
        { OTP: otp, Authorization: basicAuth(production) },
      );
      return csidResult(answer);
    },
    async report(production, document) {
      const answer = await call("POST", ZATCA_PATHS.reporting, invoiceBody(document), {
        Authorization: basicAuth(production),
        "Clearance-Status": "0",
      });
      return submissionResult(answer, "reporting");
    },
    async clear(production, document) {
      const answer = await call("POST", ZATCA_PATHS.clearance, invoiceBody(document), {
        Authorization: basicAuth(production),
        "Clearance-Status": "1",
      });
      return submissionResult(answer, "clearance");
    },
  };
}

export type ZatcaEnv = Pick<Env, "ENVIRONMENT" | "KV"> & {
  /** ZATCA's gateway for this shop: one of ZATCA_BASES. Unset in development and test: the stand-in. */
  ZATCA_API_BASE?: string;
};

export interface ZatcaFromEnvOptions {
  /** The stand-in's judge of documents (hash, signature, business rules); default: acceptStandInDocument. */
  check?: ZatcaCheck;
}

/**
 * The adapter for this deployment. ZATCA_API_BASE set: ZATCA's gateway there (it must be https).
 * Unset: in development and test the offline stand-in (state in KV), in production null: a live
 * shop never reports to a stand-in, so it does not report at all until the base is configured.
 */
export function zatcaFromEnv(env: ZatcaEnv, options: ZatcaFromEnvOptions = {}): ZatcaApi | null {
  const base = env.ZATCA_API_BASE?.trim() ?? "";
  if (base) {
    if (!/^https:\/\/[^/\s]+/.test(base)) return null;
    return zatcaApi({ apiBase: base });
  }
  if (env.ENVIRONMENT !== "development" && env.ENVIRONMENT !== "test") return null;
  return zatcaApi({ apiBase: ZATCA_STAND_IN_BASE, fetcher: zatcaStandIn(env.KV, { check: options.check }) });
}
