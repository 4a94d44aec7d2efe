import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { AsnConvert, OctetString } from "@peculiar/asn1-schema";
import {
  BasicConstraints,
  Certificate,
  Extension,
  Extensions,
  KeyUsage,
  KeyUsageFlags,
  Name,
  TBSCertificate,
  Validity,
  Version,
  id_ce_basicConstraints,
  id_ce_keyUsage,
  AttributeTypeAndValue,
  AttributeValue,
  RelativeDistinguishedName,
} from "@peculiar/asn1-x509";
import {
  CSR_TEMPLATE_NAMES,
  CsrError,
  OID,
  base64Of,
  base64OfText,
  bytesOfBase64,
  ecdsaSha256Algorithm,
  readCsr,
  sanExtension,
  signDer,
  spkiOfPoint,
  templateNameExtension,
  textOfBase64,
  type ReadCsr,
} from "./csr";

/**
 * ZATCA's Fatoora API as development and test see it: the adapter (zatca-api.ts) calls this
 * fetcher in place of gw-fatoora.zatca.gov.sa, so every test runs the adapter's real requests.
 * It answers ZATCA's documented endpoints with ZATCA's documented shapes
 * (test/fixtures/zatca-api/ holds ZATCA's examples and says where each comes from):
 *
 * - every call needs `Accept-Version: V2` (else 406 and ZATCA's sentence);
 * - POST /compliance: OTP 123345 (the developer portal's documented test OTP) is the only one it
 *   takes: none is 400 Missing-OTP "OTP is required field", another 400 Invalid-OTP "The provided
 *   OTP is invalid" (ZATCA's words). The CSR (base64 of its PEM) must parse, be signed by its own
 *   secp256k1 key (ECDSA-SHA256), carry C=SA, OU, O, CN, one of ZATCA's three template names and
 *   the SAN's SN "1-…|2-…|3-…", UID (a VAT number), title (functionality map), registeredAddress
 *   and businessCategory; a CSR that does not is 400 with `errors` [{ code "Invalid-CSR",
 *   message }] (the code and words are the stand-in's, in ZATCA's `errors` shape). It issues a
 *   compliance CSID: a real X.509 v3 certificate signed by the stand-in's CA key (secp256k1,
 *   ECDSA-SHA256; generated once and kept in KV), whose subject is the CSR's, with the CSR's SAN
 *   and template name copied, a random serial, and a short validity.
 *   binarySecurityToken = base64 of the certificate's base64 DER text (ZATCA's example tokens
 *   decode to "MII…"), secret = 32 random bytes in base64, requestID a 13-digit number.
 * - POST /compliance/invoices (Basic auth: the compliance CSID): decodes the XML and judges it
 *   with `check`; the document's kind (cbc:InvoiceTypeCode 388/381/383 and its name's 01/02) is
 *   a compliance step ("standard-compliant", "simplified-credit-note-compliant"…), recorded as
 *   passed when the document has no error. Standard documents answer clearanceStatus, simplified
 *   ones reportingStatus. These documents are only checks: nothing is reported.
 * - POST /production/csids (Basic auth: the compliance CSID; body { compliance_request_id } of
 *   that CSID): refused with 400 Missing-ComplianceSteps (ZATCA's code; the message lists the
 *   missing steps as ZATCA's live answer does) until every step the CSR's functionality map needs
 *   passed: for "1100" all six (standard and simplified × invoice, credit note, debit note). Then
 *   a production certificate for the same subject and SAN, valid a year.
 * - PATCH /production/csids (Basic auth: a production CSID; OTP; body { csr } of the same VAT
 *   number): a new production CSID (renewal). The old one stays valid until it expires.
 * - POST /invoices/reporting/single (production CSID, Clearance-Status 0) and
 *   /invoices/clearance/single (Clearance-Status 1): judged with `check`; 200 with no warnings,
 *   202 with warnings, 400 with errors (NOT_REPORTED / NOT_CLEARED). Reporting takes simplified
 *   documents, clearance standard ones (the other kind is an error, in the stand-in's words).
 *   Accepted documents are recorded by UUID; the same UUID again answers as ZATCA's duplicate check
 *   does: 409 from reporting, 208 from clearance, with its Duplicate-Invoice message.
 *   Clearance answers clearedInvoice: ZATCA returns the XML it stamped; the stand-in returns the
 *   submitted XML unchanged (it adds no stamp or QR of its own). With clearance switched off
 *   (`setZatcaClearance(kv, false)`), clearance answers 303 and ZATCA's InfoModel { message }.
 * - Basic auth on every invoice and production CSID call: an unknown token, a wrong secret, a CSID
 *   of the other kind, or an expired certificate is 401 with ZATCA's documented body.
 * - `failZatcaNext(kv, n)`: the next n calls answer 503 (any call), so retries can be tested.
 *
 * State lives in KV (stand-in:zatca:…) for 30 days; the CA key for good.
 */

export const ZATCA_STAND_IN_BASE = "https://zatca.stand-in.invalid/e-invoicing/developer-portal";
/** The developer portal's documented test OTP. */
export const ZATCA_STAND_IN_OTP = "123345";

export const DAY_MS = 86_400_000;
/** The stand-in's lifetimes: a compliance CSID is for onboarding only; a production one for a year. */
export const COMPLIANCE_LIFETIME_MS = 30 * DAY_MS;
export const PRODUCTION_LIFETIME_MS = 365 * DAY_MS;

export interface ZatcaCheckMessage {
  code: string;
  message: string;
  category: string;
}

/** The judge of a submitted document (the real one: hash, signature, business rules). */
export type ZatcaCheck = (xml: string) => Promise<{ errors: ZatcaCheckMessage[]; warnings: ZatcaCheckMessage[] }>;

/** The default judge until the real checker is plugged in: an XML document whose root is Invoice. */
export const acceptStandInDocument: ZatcaCheck = async (xml) => {
  const root = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<([A-Za-z_][\w.-]*:)?Invoice[\s>]/.test(xml);
  return root
    ? { errors: [], warnings: [] }
    : {
        errors: [
          { code: "XSD_SCHEMA_ERROR", category: "XSD validation", message: "The document is not a UBL Invoice." },
        ],
        warnings: [],
      };
};

export interface ZatcaStandInOptions {
  check?: ZatcaCheck;
  /** The clock (certificate validity, expiry). */
  now?: () => number;
  complianceLifetimeMs?: number;
  productionLifetimeMs?: number;
}

const TTL = 30 * 86_400;
const KEY = {
  ca: "stand-in:zatca:ca",
  failNext: "stand-in:zatca:fail-next",
  clearanceOff: "stand-in:zatca:clearance-off",
  csid: (requestId: string) => `stand-in:zatca:csid:${requestId}`,
  token: (digest: string) => `stand-in:zatca:token:${digest}`,
  document: (uuid: string) => `stand-in:zatca:document:${uuid}`,
};

/** The compliance steps, ZATCA's names for them (from its Missing-ComplianceSteps answers). */
export const COMPLIANCE_STEPS = [
  "standard-compliant",
  "standard-credit-note-compliant",
  "standard-debit-note-compliant",
  "simplified-compliant",
  "simplified-credit-note-compliant",
  "simplified-debit-note-compliant",
] as const;
export type ComplianceStep = (typeof COMPLIANCE_STEPS)[number];

/** The steps a functionality map ("TSCZ": standard, simplified…) needs before a production CSID. */
export function stepsFor(invoiceType: string): ComplianceStep[] {
  return COMPLIANCE_STEPS.filter((step) =>
    step.startsWith("standard") ? invoiceType.charAt(0) === "1" : invoiceType.charAt(1) === "1",
  );
}

export interface DocumentKind {
  profile: "standard" | "simplified";
  type: "invoice" | "credit-note" | "debit-note";
  step: ComplianceStep;
}

/** A UBL document's kind, from cbc:InvoiceTypeCode (388, 381, 383) and its name (01… standard, 02… simplified). */
export function documentKind(xml: string): DocumentKind | null {
  const m = /<(?:[\w.-]+:)?InvoiceTypeCode\b[^>]*?\bname\s*=\s*["'](\d{7})["'][^>]*>\s*(\d{3})\s*</.exec(xml);
  if (!m) return null;
  const profile = m[1].startsWith("01") ? "standard" : m[1].startsWith("02") ? "simplified" : null;
  const type = ({ "388": "invoice", "381": "credit-note", "383": "debit-note" } as const)[m[2] as "388"];
  if (!profile || !type) return null;
  const step = (type === "invoice" ? `${profile}-compliant` : `${profile}-${type}-compliant`) as ComplianceStep;
  return { profile, type, step };
}

interface StoredCsid {
  request_id: string;
  kind: "compliance" | "production";
  secret: string;
  /** base64 DER of the certificate. */
  certificate: string;
  /** The CSR it was issued for (the API's form), for the production certificate. */
  csr: string;
  vat_number: string;
  invoice_type: string;
  not_after: number;
  /** Compliance CSIDs: the steps passed so far. */
  passed: ComplianceStep[];
}

export interface StoredZatcaDocument {
  uuid: string;
  invoice_hash: string;
  endpoint: "reporting" | "clearance";
  status: "REPORTED" | "CLEARED";
  warnings: number;
  at: string;
}

interface StoredCa {
  private_key: string;
  certificate: string;
}

const CA_NAME = new Name([
  new RelativeDistinguishedName([
    new AttributeTypeAndValue({ type: OID.country, value: new AttributeValue({ printableString: "SA" }) }),
  ]),
  new RelativeDistinguishedName([
    new AttributeTypeAndValue({
      type: OID.organization,
      value: new AttributeValue({ utf8String: "Souq Edge (ZATCA stand-in)" }),
    }),
  ]),
  new RelativeDistinguishedName([
    new AttributeTypeAndValue({ type: OID.commonName, value: new AttributeValue({ utf8String: "ZATCA stand-in CA" }) }),
  ]),
]);

const toBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
const ext = (extnID: string, critical: boolean, value: unknown) =>
  new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });

/** A positive 16-byte serial number. */
function serialNumber(): ArrayBuffer {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = 0x40 | (bytes[0] & 0x3f);
  return toBuffer(bytes);
}

function signCertificate(tbs: TBSCertificate, caKey: Uint8Array): Uint8Array {
  const tbsDer = new Uint8Array(AsnConvert.serialize(tbs));
  const certificate = new Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm: ecdsaSha256Algorithm(),
    signatureValue: toBuffer(signDer(tbsDer, caKey)),
  });
  return new Uint8Array(AsnConvert.serialize(certificate));
}

/** The stand-in's CA: its key and self-signed certificate, made once and kept in KV. */
async function loadCa(kv: KVNamespace): Promise<{ key: Uint8Array; certificate: Uint8Array }> {
  const stored = await kv.get<StoredCa>(KEY.ca, "json");
  if (stored) return { key: bytesOfBase64(stored.private_key), certificate: bytesOfBase64(stored.certificate) };
  const key = secp256k1.utils.randomSecretKey();
  const now = Date.now();
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: serialNumber(),
    signature: ecdsaSha256Algorithm(),
    issuer: CA_NAME,
    validity: new Validity({ notBefore: new Date(now - DAY_MS), notAfter: new Date(now + 20 * 365 * DAY_MS) }),
    subject: CA_NAME,
    subjectPublicKeyInfo: spkiOfPoint(secp256k1.getPublicKey(key, false)),
    extensions: new Extensions([
      ext(id_ce_basicConstraints, true, new BasicConstraints({ cA: true })),
      ext(id_ce_keyUsage, true, new KeyUsage(KeyUsageFlags.keyCertSign | KeyUsageFlags.cRLSign)),
    ]),
  });
  const certificate = signCertificate(tbs, key);
  await kv.put(KEY.ca, JSON.stringify({ private_key: base64Of(key), certificate: base64Of(certificate) }));
  return { key, certificate };
}

/** The stand-in CA's certificate (DER), to verify what it issued. */
export async function zatcaStandInCa(kv: KVNamespace): Promise<Uint8Array> {
  return (await loadCa(kv)).certificate;
}

/** An X.509 v3 certificate for a checked CSR: its subject, key, SAN and template name, signed by the CA. */
async function issue(kv: KVNamespace, csr: ReadCsr, notBefore: number, lifetimeMs: number): Promise<Uint8Array> {
  const ca = await loadCa(kv);
  const extensions = [
    ext(id_ce_basicConstraints, false, new BasicConstraints({ cA: false })),
    ext(id_ce_keyUsage, true, new KeyUsage(KeyUsageFlags.digitalSignature | KeyUsageFlags.nonRepudiation)),
  ];
  if (csr.san) extensions.push(sanExtension(csr.san));
  if (csr.templateName) extensions.push(templateNameExtension(csr.templateName));
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: serialNumber(),
    signature: ecdsaSha256Algorithm(),
    issuer: CA_NAME,
    validity: new Validity({ notBefore: new Date(notBefore), notAfter: new Date(notBefore + lifetimeMs) }),
    subject: csr.subjectName,
    subjectPublicKeyInfo: csr.publicKeySpki,
    extensions: new Extensions(extensions),
  });
  return signCertificate(tbs, ca.key);
}

/** What is wrong with a CSR for ZATCA; none: it can be signed. */
function csrProblems(csr: ReadCsr): string[] {
  const problems: string[] = [];
  if (!csr.signatureValid) problems.push("The CSR's signature does not verify with its public key (ECDSA-SHA256).");
  if (csr.subject[OID.country] !== "SA") problems.push("The CSR's country (C) must be SA.");
  for (const [oid, name] of [
    [OID.organizationUnit, "organization unit (OU)"],
    [OID.organization, "organization name (O)"],
    [OID.commonName, "common name (CN)"],
  ] as const)
    if (!csr.subject[oid]?.trim()) problems.push(`The CSR has no ${name}.`);
  if (!csr.templateName || !Object.values(CSR_TEMPLATE_NAMES).includes(csr.templateName))
    problems.push("The CSR's certificate template name is not one of ZATCA's.");
  const san = csr.sanFields;
  if (!san.serial || !/^1-[^|]+\|2-[^|]+\|3-[^|]+$/.test(san.serial))
    problems.push('The CSR\'s serial number (SN) must be "1-<solution>|2-<model>|3-<serial>".');
  if (!san.vat_number || !/^3\d{13}3$/.test(san.vat_number))
    problems.push("The CSR's UID must be a VAT number: 15 digits starting and ending with 3.");
  if (!san.invoice_type || !/^[01]{4}$/.test(san.invoice_type) || san.invoice_type.slice(0, 2) === "00")
    problems.push("The CSR's title must be the functionality map, e.g. 1100.");
  if (!san.location?.trim()) problems.push("The CSR has no registeredAddress.");
  if (!san.industry?.trim()) problems.push("The CSR has no businessCategory.");
  if (san.vat_number?.charAt(10) === "1" && !/^\d{10}$/.test(csr.subject[OID.organizationUnit] ?? ""))
    problems.push("For a VAT group the organization unit (OU) must be the member's 10-digit TIN.");
  return problems;
}

const tokenDigest = (token: string) =>
  Array.from(sha256(new TextEncoder().encode(token)), (b) => b.toString(16).padStart(2, "0")).join("");

type Msg = ZatcaCheckMessage;
const json = (status: number, body: unknown) => Response.json(body, { status });
const errorsAnswer = (status: number, errors: { code: string; message: string }[]) => json(status, { errors });
const unauthorized = (now: number) => json(401, { timestamp: now, status: 401, error: "Unauthorized", message: "" });

function validationResults(errors: Msg[], warnings: Msg[]) {
  return {
    infoMessages: [
      {
        type: "INFO",
        code: "XSD_ZATCA_VALID",
        category: "XSD validation",
        message: "Complied with UBL 2.1 standards in line with ZATCA specifications",
        status: "PASS",
      },
    ],
    warningMessages: warnings.map((w) => ({ type: "WARNING", ...w, status: "WARNING" })),
    errorMessages: errors.map((e) => ({ type: "ERROR", ...e, status: "ERROR" })),
    status: errors.length ? "ERROR" : warnings.length ? "WARNING" : "PASS",
  };
}

export function zatcaStandIn(kv: KVNamespace, options: ZatcaStandInOptions = {}): typeof fetch {
  const base = new URL(ZATCA_STAND_IN_BASE);
  const check = options.check ?? acceptStandInDocument;
  const now = options.now ?? Date.now;
  const complianceLifetime = options.complianceLifetimeMs ?? COMPLIANCE_LIFETIME_MS;
  const productionLifetime = options.productionLifetimeMs ?? PRODUCTION_LIFETIME_MS;

  const loadCsid = (requestId: string) => kv.get<StoredCsid>(KEY.csid(requestId), "json");
  const saveCsid = (csid: StoredCsid) =>
    kv.put(KEY.csid(csid.request_id), JSON.stringify(csid), { expirationTtl: TTL });

  async function newRequestId(): Promise<string> {
    for (;;) {
      const digits = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => String(b % 10)).join("");
      const id = `1${digits}`;
      if (!(await kv.get(KEY.csid(id)))) return id;
    }
  }

  /** Issues a CSID of `kind` for a checked CSR, and records it. */
  async function issueCsid(kind: StoredCsid["kind"], csrText: string, csr: ReadCsr) {
    const lifetime = kind === "compliance" ? complianceLifetime : productionLifetime;
    const der = await issue(kv, csr, now(), lifetime);
    const certificate = base64Of(der);
    const token = base64OfText(certificate);
    const secret = base64Of(crypto.getRandomValues(new Uint8Array(32)));
    const stored: StoredCsid = {
      request_id: await newRequestId(),
      kind,
      secret,
      certificate,
      csr: csrText,
      vat_number: csr.sanFields.vat_number ?? "",
      invoice_type: csr.sanFields.invoice_type ?? "",
      not_after: now() + lifetime,
      passed: [],
    };
    await saveCsid(stored);
    await kv.put(KEY.token(tokenDigest(token)), stored.request_id, { expirationTtl: TTL });
    return { stored, token };
  }

  /** The CSID of a request's Basic login, when it is of `kind`, its secret right and its certificate valid. */
  async function login(request: Request, kind: StoredCsid["kind"]): Promise<StoredCsid | null> {
    const m = /^Basic\s+(\S+)$/i.exec(request.headers.get("Authorization") ?? "");
    if (!m) return null;
    let decoded: string;
    try {
      decoded = atob(m[1]);
    } catch {
      return null;
    }
    const colon = decoded.indexOf(":");
    if (colon < 1) return null;
    const requestId = await kv.get(KEY.token(tokenDigest(decoded.slice(0, colon))));
    const csid = requestId ? await loadCsid(requestId) : null;
    if (!csid || csid.kind !== kind || csid.secret !== decoded.slice(colon + 1)) return null;
    if (csid.not_after <= now()) return null;
    return csid;
  }

  /** The CSR of a body, read and checked; or the answer refusing it. */
  function checkedCsr(body: Record<string, unknown>): { csr: ReadCsr; text: string } | Response {
    const text = typeof body.csr === "string" ? body.csr.trim() : "";
    if (!text) return errorsAnswer(400, [{ code: "Missing-CSR", message: "CSR is required field" }]);
    let csr: ReadCsr;
    try {
      csr = readCsr(text);
    } catch (error) {
      const message = error instanceof CsrError ? error.message : "The CSR cannot be read.";
      return errorsAnswer(400, [{ code: "Invalid-CSR", message }]);
    }
    const problems = csrProblems(csr);
    if (problems.length)
      return errorsAnswer(
        400,
        problems.map((message) => ({ code: "Invalid-CSR", message })),
      );
    return { csr, text };
  }

  function otpRefusal(request: Request): Response | null {
    const otp = request.headers.get("OTP")?.trim() ?? "";
    if (!otp) return errorsAnswer(400, [{ code: "Missing-OTP", message: "OTP is required field" }]);
    if (otp !== ZATCA_STAND_IN_OTP)
      return errorsAnswer(400, [{ code: "Invalid-OTP", message: "The provided OTP is invalid" }]);
    return null;
  }

  async function compliance(request: Request, body: Record<string, unknown>) {
    const refused = otpRefusal(request);
    if (refused) return refused;
    const checked = checkedCsr(body);
    if (checked instanceof Response) return checked;
    const { stored, token } = await issueCsid("compliance", checked.text, checked.csr);
    return json(200, {
      requestID: Number(stored.request_id),
      dispositionMessage: "ISSUED",
      binarySecurityToken: token,
      secret: stored.secret,
      errors: null,
    });
  }

  async function productionCsid(request: Request, body: Record<string, unknown>) {
    const csid = await login(request, "compliance");
    if (!csid) return unauthorized(now());
    const asked =
      typeof body.compliance_request_id === "string" || typeof body.compliance_request_id === "number"
        ? String(body.compliance_request_id)
        : "";
    if (asked !== csid.request_id)
      return errorsAnswer(400, [
        { code: "Invalid-Request-ID", message: "compliance_request_id is not the request of this compliance CSID" },
      ]);
    const missing = stepsFor(csid.invoice_type).filter((step) => !csid.passed.includes(step));
    if (missing.length)
      return errorsAnswer(400, [
        {
          code: "Missing-ComplianceSteps",
          message: `The compliance certificate is not done with the following compliance steps yet [${missing.join(",")}]`,
        },
      ]);
    const { stored, token } = await issueCsid("production", csid.csr, readCsr(csid.csr));
    return json(200, {
      requestID: Number(stored.request_id),
      tokenType: "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3",
      dispositionMessage: "ISSUED",
      binarySecurityToken: token,
      secret: stored.secret,
    });
  }

  async function renewal(request: Request, body: Record<string, unknown>) {
    const csid = await login(request, "production");
    if (!csid) return unauthorized(now());
    const refused = otpRefusal(request);
    if (refused) return refused;
    const checked = checkedCsr(body);
    if (checked instanceof Response) return checked;
    if (checked.csr.sanFields.vat_number !== csid.vat_number)
      return errorsAnswer(400, [{ code: "Invalid-CSR", message: "The CSR's VAT number (UID) is not this CSID's." }]);
    const { stored, token } = await issueCsid("production", checked.text, checked.csr);
    return json(200, {
      requestID: Number(stored.request_id),
      tokenType: "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3",
      dispositionMessage: "ISSUED",
      binarySecurityToken: token,
      secret: stored.secret,
    });
  }

  /** The document of an invoice call's body, decoded; or the answer refusing the body. */
  function documentOf(body: Record<string, unknown>): { uuid: string; hash: string; xml: string } | Response {
    const uuid = typeof body.uuid === "string" ? body.uuid.trim() : "";
    const hash = typeof body.invoiceHash === "string" ? body.invoiceHash.trim() : "";
    const invoice = typeof body.invoice === "string" ? body.invoice : "";
    const missing = [
      ["invoiceHash", hash],
      ["uuid", uuid],
      ["invoice", invoice],
    ].filter(([, value]) => !value);
    if (missing.length)
      return errorsAnswer(
        400,
        missing.map(([field]) => ({ code: `Missing-${field}`, message: `${field} is required field` })),
      );
    try {
      return { uuid, hash, xml: textOfBase64(invoice) };
    } catch {
      return errorsAnswer(400, [{ code: "Invalid-Invoice", message: "invoice must be the base64 of the XML" }]);
    }
  }

  async function complianceInvoice(request: Request, body: Record<string, unknown>) {
    const csid = await login(request, "compliance");
    if (!csid) return unauthorized(now());
    const document = documentOf(body);
    if (document instanceof Response) return document;
    const kind = documentKind(document.xml);
    const judged = await check(document.xml);
    const errors = [...judged.errors];
    if (!kind)
      errors.push({
        code: "invoice-type",
        category: "stand-in",
        message: "cbc:InvoiceTypeCode is not 388, 381 or 383 with a name of 01… (standard) or 02… (simplified).",
      });
    else if (!stepsFor(csid.invoice_type).includes(kind.step))
      errors.push({
        code: "invoice-type",
        category: "stand-in",
        message: `This EGS was not onboarded for ${kind.profile} documents (functionality map ${csid.invoice_type}).`,
      });
    if (kind && !errors.length && !csid.passed.includes(kind.step)) {
      csid.passed.push(kind.step);
      await saveCsid(csid);
    }
    const passed = !errors.length;
    const standard = kind?.profile === "standard";
    return json(passed ? (judged.warnings.length ? 202 : 200) : 400, {
      validationResults: validationResults(errors, judged.warnings),
      reportingStatus: standard || !kind ? null : passed ? "REPORTED" : "NOT_REPORTED",
      clearanceStatus: standard ? (passed ? "CLEARED" : "NOT_CLEARED") : null,
      qrSellertStatus: null,
      qrBuyertStatus: null,
    });
  }

  async function submit(request: Request, body: Record<string, unknown>, endpoint: "reporting" | "clearance") {
    const csid = await login(request, "production");
    if (!csid) return unauthorized(now());
    const flag = request.headers.get("Clearance-Status");
    if (flag !== "0" && flag !== "1")
      return errorsAnswer(400, [{ code: "Missing-Clearance-Status", message: "Clearance-Status is required field" }]);
    if (endpoint === "clearance" && (await kv.get(KEY.clearanceOff)))
      return json(303, {
        message: "Clearance is deactivated. Please use the /invoices/reporting/single endpoint instead.",
      });
    const document = documentOf(body);
    if (document instanceof Response) return document;
    const statusField = endpoint === "reporting" ? "reportingStatus" : "clearanceStatus";
    const [yes, no] = endpoint === "reporting" ? ["REPORTED", "NOT_REPORTED"] : ["CLEARED", "NOT_CLEARED"];

    const earlier = await kv.get<StoredZatcaDocument>(KEY.document(document.uuid), "json");
    if (earlier) {
      const duplicate: Msg = {
        code: "Invoice-Errors",
        category: "Duplicate-Invoice",
        message: `Invoice was already ${earlier.status === "CLEARED" ? "Cleared" : "Reported"} successfully earlier.`,
      };
      return json(endpoint === "reporting" ? 409 : 208, {
        validationResults: { ...validationResults([duplicate], []), infoMessages: [] },
        [statusField]: no,
      });
    }

    const judged = await check(document.xml);
    const errors = [...judged.errors];
    const kind = documentKind(document.xml);
    const wanted = endpoint === "reporting" ? "simplified" : "standard";
    if (!kind || kind.profile !== wanted)
      errors.push({
        code: "invoice-type",
        category: "stand-in",
        message:
          endpoint === "reporting"
            ? "Only simplified documents (InvoiceTypeCode name 02…) are reported."
            : "Only standard documents (InvoiceTypeCode name 01…) are cleared.",
      });
    if (errors.length)
      return json(400, { validationResults: validationResults(errors, judged.warnings), [statusField]: no });
    const stored: StoredZatcaDocument = {
      uuid: document.uuid,
      invoice_hash: document.hash,
      endpoint,
      status: yes as StoredZatcaDocument["status"],
      warnings: judged.warnings.length,
      at: new Date(now()).toISOString(),
    };
    await kv.put(KEY.document(document.uuid), JSON.stringify(stored), { expirationTtl: TTL });
    const answer: Record<string, unknown> = {
      validationResults: validationResults([], judged.warnings),
      [statusField]: yes,
    };
    // ZATCA returns the XML it stamped; the stand-in returns the submitted XML unchanged.
    if (endpoint === "clearance") answer.clearedInvoice = base64OfText(document.xml);
    return json(judged.warnings.length ? 202 : 200, answer);
  }

  const ROUTES: Record<string, (request: Request, body: Record<string, unknown>) => Promise<Response>> = {
    "POST /compliance": compliance,
    "POST /compliance/invoices": complianceInvoice,
    "POST /production/csids": productionCsid,
    "PATCH /production/csids": renewal,
    "POST /invoices/reporting/single": (r, b) => submit(r, b, "reporting"),
    "POST /invoices/clearance/single": (r, b) => submit(r, b, "clearance"),
  };

  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== base.origin || !url.pathname.startsWith(`${base.pathname}/`))
      throw new Error(`The ZATCA stand-in was asked for ${url.origin}${url.pathname}`);
    const failures = Number((await kv.get(KEY.failNext)) ?? 0);
    if (failures > 0) {
      if (failures > 1) await kv.put(KEY.failNext, String(failures - 1), { expirationTtl: TTL });
      else await kv.delete(KEY.failNext);
      return json(503, { category: "HTTP-Errors", code: "503", message: "Service Unavailable" });
    }
    const path = url.pathname.slice(base.pathname.length);
    const route = ROUTES[`${request.method} ${path}`];
    if (!route) {
      const known = Object.keys(ROUTES).some((key) => key.endsWith(` ${path}`));
      return new Response(known ? "Method Not Allowed" : "Not Found", { status: known ? 405 : 404 });
    }
    if (request.headers.get("Accept-Version") !== "V2")
      return new Response("This Version is not supported or not provided in the header.", { status: 406 });
    const body = await request.json().catch(() => null);
    if (!body || typeof body !== "object" || Array.isArray(body))
      return errorsAnswer(400, [{ code: "Invalid-Request", message: "The request body is not a JSON object" }]);
    return route(request, body as Record<string, unknown>);
  };
}

/** The next `times` calls to the stand-in answer 503 (a transient failure). */
export async function failZatcaNext(kv: KVNamespace, times = 1): Promise<void> {
  if (times > 0) await kv.put(KEY.failNext, String(times), { expirationTtl: TTL });
  else await kv.delete(KEY.failNext);
}

/** Switches the stand-in's clearance off (303, report instead) or back on. */
export async function setZatcaClearance(kv: KVNamespace, on: boolean): Promise<void> {
  if (on) await kv.delete(KEY.clearanceOff);
  else await kv.put(KEY.clearanceOff, "1");
}

/** What the stand-in recorded for a reported or cleared document, by its UUID. */
export async function loadZatcaDocument(kv: KVNamespace, uuid: string): Promise<StoredZatcaDocument | null> {
  return kv.get<StoredZatcaDocument>(KEY.document(uuid), "json");
}

/** The compliance steps a compliance CSID has passed (by its requestID). */
export async function zatcaCompliancePassed(kv: KVNamespace, requestId: string): Promise<ComplianceStep[] | null> {
  return (await kv.get<StoredCsid>(KEY.csid(requestId), "json"))?.passed ?? null;
}
