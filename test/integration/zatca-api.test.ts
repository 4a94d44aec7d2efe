import { env } from "cloudflare:workers";
import { AsnConvert } from "@peculiar/asn1-schema";
import { Certificate, SubjectAlternativeName } from "@peculiar/asn1-x509";
import { describe, expect, it } from "vitest";
import clearanceDoc from "../fixtures/zatca-api/clearance.request.json";
import cleared200 from "../fixtures/zatca-api/clearance.response-200.json";
import clearance303 from "../fixtures/zatca-api/clearance.response-303.json";
import invalidOtp from "../fixtures/zatca-api/compliance-csid.invalid-otp.json";
import complianceDoc from "../fixtures/zatca-api/compliance-csid.request.json";
import complianceAnswer from "../fixtures/zatca-api/compliance-csid.response.json";
import complianceInvoicesDoc from "../fixtures/zatca-api/compliance-invoices.request.json";
import complianceInvoicesAnswer from "../fixtures/zatca-api/compliance-invoices.response.json";
import missingSteps from "../fixtures/zatca-api/production-csid.missing-steps.json";
import productionDoc from "../fixtures/zatca-api/production-csid.request.json";
import productionAnswer from "../fixtures/zatca-api/production-csid.response.json";
import renewalDoc from "../fixtures/zatca-api/renewal.request.json";
import renewalAnswer from "../fixtures/zatca-api/renewal.response.json";
import reportingDoc from "../fixtures/zatca-api/reporting.request.json";
import reported200 from "../fixtures/zatca-api/reporting.response-200.json";
import reported202 from "../fixtures/zatca-api/reporting.response-202.json";
import reported400 from "../fixtures/zatca-api/reporting.response-400.json";
import reported409 from "../fixtures/zatca-api/reporting.response-409.json";
import unauthorizedAnswer from "../fixtures/zatca-api/unauthorized.response.json";
import {
  OID,
  base64OfText,
  buildCsr,
  bytesOfBase64,
  generateKeyPair,
  nameFields,
  pointOfSpki,
  readCsr,
  sanFields,
  templateNameOf,
  textOfBase64,
  verifyDer,
  type CsrFieldsInput,
} from "../../worker/backend/services/einvoicing/csr";
import {
  ZATCA_BASES,
  ZATCA_PATHS,
  zatcaApi,
  zatcaFromEnv,
  type ZatcaCredentials,
  type ZatcaCsid,
  type SubmittedDocument,
} from "../../worker/backend/services/einvoicing/zatca-api";
import {
  COMPLIANCE_STEPS,
  DAY_MS,
  ZATCA_STAND_IN_BASE,
  ZATCA_STAND_IN_OTP,
  documentKind,
  failZatcaNext,
  loadZatcaDocument,
  setZatcaClearance,
  zatcaCompliancePassed,
  zatcaStandIn,
  zatcaStandInCa,
  type ZatcaCheck,
  type ZatcaStandInOptions,
} from "../../worker/backend/services/einvoicing/zatca-stand-in";

// The ZATCA adapter against ZATCA's documented requests and answers (test/fixtures/zatca-api/,
// each with its source), then the whole onboarding and reporting against the offline stand-in:
// the same adapter, its real requests, ZATCA's shapes.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the sent JSON loosely
type Body = Record<string, any>;
type Sent = { url: string; method: string; headers: Record<string, string>; body: Body };

/** A fetcher that keeps each request and answers the fixture's status and body. */
function recorder(answer: { status: number; body: unknown }) {
  const calls: Sent[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => (headers[key] = value));
    calls.push({ url: request.url, method: request.method, headers, body: (await request.json()) as Body });
    return Response.json(answer.body, { status: answer.status });
  }) as typeof fetch;
  return { calls, api: zatcaApi({ apiBase: ZATCA_BASES["developer-portal"], fetcher }) };
}

const kind = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/** The documented body fields our request lacks or sends as another kind. */
function differences(documented: Body, sent: Body): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(documented)) {
    if (!(key in sent)) out.push(`${key}: missing`);
    else if (kind(sent[key]) !== kind(value)) out.push(`${key}: ${kind(value)}, sent ${kind(sent[key])}`);
  }
  for (const key of Object.keys(sent)) if (!(key in documented)) out.push(`${key}: not documented`);
  return out;
}

/** The request against its documentation: method, path, every documented header (same value but the secrets), the body's fields. */
function expectDocumented(
  sent: Sent,
  doc: { method: string; path: string; headers: Record<string, string>; body: Body },
) {
  expect(sent.method).toBe(doc.method);
  expect(sent.url).toBe(`${ZATCA_BASES["developer-portal"]}${doc.path}`);
  for (const [name, value] of Object.entries(doc.headers)) {
    const got = sent.headers[name.toLowerCase()];
    expect(got, `header ${name}`).toBeDefined();
    if (name === "Authorization") expect(got).toMatch(/^Basic [A-Za-z0-9+/]+=*$/);
    else if (name !== "OTP") expect(got, `header ${name}`).toBe(value);
  }
  expect(differences(doc.body, sent.body)).toEqual([]);
}

const CREDENTIALS: ZatcaCredentials = {
  binary_security_token: complianceAnswer.body.binarySecurityToken,
  secret: "s3cret",
};

/** A UBL document of a kind: `name` 01… standard / 02… simplified, code 388/381/383; the stub check reads the comments. */
function document(profile: "standard" | "simplified", code: "388" | "381" | "383", marks = ""): SubmittedDocument {
  const uuid = crypto.randomUUID();
  const name = profile === "standard" ? "0100000" : "0200000";
  return {
    uuid,
    invoice_hash: "vLGQoYNoM3tf1XAxKpoNTSz/8pkdidXy47HWh0VQmu8=",
    xml:
      `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" ` +
      `xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">${marks}` +
      `<cbc:ProfileID>reporting:1.0</cbc:ProfileID><cbc:ID>SME-${uuid.slice(0, 8)}</cbc:ID><cbc:UUID>${uuid}</cbc:UUID>` +
      `<cbc:InvoiceTypeCode name="${name}">${code}</cbc:InvoiceTypeCode><cbc:Note>مرحبا</cbc:Note></Invoice>`,
  };
}

/** The stub judge: <!--reject--> is an error, <!--warn--> a warning (the real checker is plugged in by the service). */
const stubCheck: ZatcaCheck = async (xml) => ({
  errors: xml.includes("<!--reject-->")
    ? [{ code: "BR-KSA-37", category: "KSA", message: "The seller address building number must contain 4 digits." }]
    : [],
  warnings: xml.includes("<!--warn-->")
    ? [
        {
          code: "BR-KSA-98",
          category: "KSA",
          message: "The simplified invoice should be submitted within 24 hours of issuing the invoice.",
        },
      ]
    : [],
});

const ALL_SIX = [
  document("standard", "388"),
  document("standard", "381"),
  document("standard", "383"),
  document("simplified", "388"),
  document("simplified", "381"),
  document("simplified", "383"),
];

const fields = (over: Partial<CsrFieldsInput> = {}): CsrFieldsInput => ({
  environment: "developer-portal",
  common_name: "TST-886431145-399999999900003",
  organization_name: "Souq Edge Trading Co.",
  organization_unit: "Riyadh Branch",
  vat_number: "399999999900003",
  egs: { solution: "SouqEdge", model: "Worker", serial: crypto.randomUUID() },
  location: "King Fahd Road 7070, Riyadh 12211",
  industry: "Retail",
  ...over,
});

function standIn(options: ZatcaStandInOptions = {}) {
  return zatcaApi({ apiBase: ZATCA_STAND_IN_BASE, fetcher: zatcaStandIn(env.KV, { check: stubCheck, ...options }) });
}

const credentialsOf = (csid: ZatcaCsid): ZatcaCredentials => ({
  binary_security_token: csid.binary_security_token,
  secret: csid.secret,
});

const toBuffer = (bytes: Uint8Array) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

/** The certificate inside a binarySecurityToken: base64 of the base64 DER text. */
const certificateOf = (token: string) => AsnConvert.parse(bytesOfBase64(textOfBase64(token)), Certificate);

async function complianceCsid(api = standIn(), csrFields = fields()) {
  const key = generateKeyPair();
  const csr = buildCsr(key, csrFields);
  const result = await api.complianceCsid(csr, ZATCA_STAND_IN_OTP);
  if (result.outcome !== "issued") throw new Error(`compliance CSID not issued: ${JSON.stringify(result)}`);
  return { key, csr, csid: result.csid };
}

async function onboarded(options: ZatcaStandInOptions = {}) {
  const api = standIn(options);
  const { csid, csr, key } = await complianceCsid(api);
  for (const doc of ALL_SIX) expect((await api.complianceCheck(credentialsOf(csid), doc)).outcome).toBe("accepted");
  const production = await api.productionCsid(credentialsOf(csid), csid.request_id);
  if (production.outcome !== "issued") throw new Error(`production CSID not issued: ${JSON.stringify(production)}`);
  return { api, key, csr, compliance: csid, production: production.csid };
}

describe("ZATCA: the adapter's requests against the documented ones", () => {
  it("POST /compliance: OTP header, Accept-Version V2, { csr }; the documented answer is an issued CSID", async () => {
    const { calls, api } = recorder(complianceAnswer);
    const result = await api.complianceCsid("Y3Ny", "123345");
    expectDocumented(calls[0], complianceDoc);
    expect(calls[0].headers.otp).toBe("123345");
    expect(result).toEqual({
      outcome: "issued",
      status: 200,
      csid: {
        request_id: "1234567890123",
        disposition: "ISSUED",
        binary_security_token: complianceAnswer.body.binarySecurityToken,
        secret: complianceAnswer.body.secret,
      },
    });
    // ZATCA's token is base64 of the certificate's base64 text.
    expect(textOfBase64(complianceAnswer.body.binarySecurityToken)).toMatch(/^MII/);
    expect(certificateOf(complianceAnswer.body.binarySecurityToken).tbsCertificate.version).toBe(2);
  });

  it("POST /compliance with a bad OTP: rejected, in ZATCA's words", async () => {
    const { api } = recorder(invalidOtp);
    expect(await api.complianceCsid("Y3Ny", "111111")).toEqual({
      outcome: "rejected",
      status: 400,
      errors: [{ code: "Invalid-OTP", message: "The provided OTP is invalid", category: "" }],
    });
  });

  it("POST /compliance/invoices: Basic login of the compliance CSID, { invoiceHash, uuid, invoice } with the XML in base64", async () => {
    const { calls, api } = recorder(complianceInvoicesAnswer);
    const doc = document("simplified", "388");
    const result = await api.complianceCheck(CREDENTIALS, doc);
    expectDocumented(calls[0], complianceInvoicesDoc);
    expect(atob(calls[0].headers.authorization.slice(6))).toBe(`${CREDENTIALS.binary_security_token}:s3cret`);
    expect(calls[0].body).toEqual({ invoiceHash: doc.invoice_hash, uuid: doc.uuid, invoice: expect.any(String) });
    expect(textOfBase64(calls[0].body.invoice)).toBe(doc.xml);
    expect(result).toMatchObject({
      outcome: "accepted",
      status: 200,
      zatca_status: "REPORTED",
      errors: [],
      warnings: [],
    });
    expect(result.info[0].code).toBe("XSD_ZATCA_VALID");
  });

  it("POST /production/csids: { compliance_request_id } as a string, with the compliance login", async () => {
    const { calls, api } = recorder(productionAnswer);
    const result = await api.productionCsid(CREDENTIALS, "1234567890123");
    expectDocumented(calls[0], productionDoc);
    expect(calls[0].body).toEqual({ compliance_request_id: "1234567890123" });
    expect(result).toMatchObject({
      outcome: "issued",
      csid: { request_id: "1642424139872", secret: productionAnswer.body.secret },
    });
  });

  it("POST /production/csids before the compliance steps: rejected with Missing-ComplianceSteps", async () => {
    const { api } = recorder(missingSteps);
    expect(await api.productionCsid(CREDENTIALS, "1234567890123")).toMatchObject({
      outcome: "rejected",
      status: 400,
      errors: [{ code: "Missing-ComplianceSteps" }],
    });
  });

  it("PATCH /production/csids (renewal): OTP, the production login, { csr }", async () => {
    const { calls, api } = recorder(renewalAnswer);
    const result = await api.renewProductionCsid(CREDENTIALS, "Y3Ny", "123345");
    expectDocumented(calls[0], renewalDoc);
    expect(result).toMatchObject({ outcome: "issued", csid: { request_id: "347" } });
  });

  it("POST /invoices/reporting/single: Clearance-Status 0; 200 accepted, 202 with ZATCA's warnings, 400 with its errors, 409 duplicate", async () => {
    const doc = document("simplified", "388");
    const ok = recorder(reported200);
    expect(await ok.api.report(CREDENTIALS, doc)).toMatchObject({
      outcome: "accepted",
      status: 200,
      zatca_status: "REPORTED",
    });
    expectDocumented(ok.calls[0], reportingDoc);

    const warned = await recorder(reported202).api.report(CREDENTIALS, doc);
    expect(warned).toMatchObject({
      outcome: "accepted_with_warnings",
      status: 202,
      zatca_status: "REPORTED",
      errors: [],
    });
    expect(warned.warnings).toEqual([
      {
        code: "BR-CO-17",
        category: "EN_16931",
        message: reported202.body.validationResults.warningMessages[0].message,
      },
      { code: "BR-KSA-98", category: "KSA", message: reported202.body.validationResults.warningMessages[1].message },
    ]);

    const rejected = await recorder(reported400).api.report(CREDENTIALS, doc);
    expect(rejected).toMatchObject({ outcome: "rejected", status: 400, zatca_status: "NOT_REPORTED" });
    expect(rejected.errors.map((e) => e.code)).toEqual(["invalid-invoice-hash", "invoiceHash_QRCODE_INVALID"]);

    expect(await recorder(reported409).api.report(CREDENTIALS, doc)).toMatchObject({
      outcome: "duplicate",
      status: 409,
      errors: [{ category: "Duplicate-Invoice" }],
    });
  });

  it("POST /invoices/clearance/single: Clearance-Status 1; the cleared XML decoded; 303 means report instead", async () => {
    const doc = document("standard", "388");
    const ok = recorder(cleared200);
    const result = await ok.api.clear(CREDENTIALS, doc);
    expectDocumented(ok.calls[0], clearanceDoc);
    expect(result).toMatchObject({ outcome: "accepted", zatca_status: "CLEARED" });
    expect(result.cleared_xml).toBe(textOfBase64(cleared200.body.clearedInvoice));
    expect(await recorder(clearance303).api.clear(CREDENTIALS, doc)).toMatchObject({
      outcome: "clearance_off",
      status: 303,
    });
  });

  it("401 is unauthorized; 429, 5xx, no answer or not ZATCA's answer is retry; 406 is our own fault", async () => {
    const doc = document("simplified", "388");
    expect(await recorder(unauthorizedAnswer).api.report(CREDENTIALS, doc)).toMatchObject({
      outcome: "unauthorized",
      status: 401,
    });
    expect(await recorder(unauthorizedAnswer).api.productionCsid(CREDENTIALS, "1")).toMatchObject({
      outcome: "unauthorized",
    });
    for (const status of [429, 500, 502, 503, 504])
      expect((await recorder({ status, body: { code: "500" } }).api.report(CREDENTIALS, doc)).outcome).toBe("retry");
    expect((await recorder({ status: 503, body: {} }).api.complianceCsid("x", "1")).outcome).toBe("retry");
    expect((await recorder({ status: 200, body: { html: true } }).api.report(CREDENTIALS, doc)).outcome).toBe("retry");
    const down = zatcaApi({
      apiBase: ZATCA_BASES.simulation,
      fetcher: (async () => {
        throw new TypeError("network connection lost");
      }) as typeof fetch,
    });
    expect(await down.report(CREDENTIALS, doc)).toMatchObject({ outcome: "retry", status: 0 });
    expect(await down.complianceCsid("x", "1")).toMatchObject({ outcome: "retry", status: 0 });
    const wrongVersion = await recorder({
      status: 406,
      body: "This Version is not supported or not provided in the header.",
    }).api.report(CREDENTIALS, doc);
    expect(wrongVersion).toMatchObject({ outcome: "rejected", status: 406 });
  });

  it("each call goes to its documented path, under the configured base", () => {
    expect(ZATCA_PATHS).toEqual({
      compliance: complianceDoc.path,
      complianceInvoices: complianceInvoicesDoc.path,
      productionCsids: productionDoc.path,
      reporting: reportingDoc.path,
      clearance: clearanceDoc.path,
    });
    expect(ZATCA_BASES).toEqual({
      "developer-portal": "https://gw-fatoora.zatca.gov.sa/e-invoicing/developer-portal",
      simulation: "https://gw-fatoora.zatca.gov.sa/e-invoicing/simulation",
      production: "https://gw-fatoora.zatca.gov.sa/e-invoicing/core",
    });
  });
});

describe("ZATCA: the stand-in answers in ZATCA's shapes", () => {
  it("its answers have the documented answers' fields", async () => {
    const raw = zatcaStandIn(env.KV, { check: stubCheck });
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      raw(`${ZATCA_STAND_IN_BASE}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Accept-Version": "V2", ...headers },
        body: JSON.stringify(body),
      });
    const csr = buildCsr(generateKeyPair(), fields());
    const compliance = await post("/compliance", { csr }, { OTP: ZATCA_STAND_IN_OTP });
    const issued = (await compliance.json()) as Body;
    expect(differences(complianceAnswer.body, issued)).toEqual([]);
    const bad = await post("/compliance", { csr }, { OTP: "111111" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual(invalidOtp.body);
    const none = await post("/compliance", { csr });
    expect(await none.json()).toEqual({ errors: [{ code: "Missing-OTP", message: "OTP is required field" }] });
    const version = await raw(`${ZATCA_STAND_IN_BASE}/compliance`, {
      method: "POST",
      headers: { OTP: "123345" },
      body: "{}",
    });
    expect(version.status).toBe(406);
    expect(await version.text()).toBe("This Version is not supported or not provided in the header.");

    const login = { Authorization: `Basic ${btoa(`${issued.binarySecurityToken}:${issued.secret}`)}` };
    const early = await post("/production/csids", { compliance_request_id: String(issued.requestID) }, login);
    expect(early.status).toBe(400);
    const earlyBody = (await early.json()) as Body;
    expect(earlyBody.errors[0].code).toBe(missingSteps.body.errors[0].code);
    expect(earlyBody.errors[0].message).toContain(COMPLIANCE_STEPS.join(","));

    const doc = document("simplified", "388");
    const checked = await post(
      "/compliance/invoices",
      { invoiceHash: doc.invoice_hash, uuid: doc.uuid, invoice: base64OfText(doc.xml) },
      login,
    );
    expect(differences(complianceInvoicesAnswer.body, (await checked.json()) as Body)).toEqual([]);

    const wrong = await post(
      "/compliance/invoices",
      {},
      { Authorization: `Basic ${btoa(`${issued.binarySecurityToken}:nope`)}` },
    );
    expect(wrong.status).toBe(401);
    expect(Object.keys((await wrong.json()) as Body)).toEqual(Object.keys(unauthorizedAnswer.body));
  });

  it("reporting, warnings, errors and duplicates answer with the documented bodies' fields", async () => {
    const { production } = await onboarded();
    const raw = zatcaStandIn(env.KV, { check: stubCheck });
    const report = (doc: SubmittedDocument) =>
      raw(`${ZATCA_STAND_IN_BASE}/invoices/reporting/single`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "Accept-Version": "V2",
          "Clearance-Status": "0",
          Authorization: `Basic ${btoa(`${production.binary_security_token}:${production.secret}`)}`,
        },
        body: JSON.stringify({ invoiceHash: doc.invoice_hash, uuid: doc.uuid, invoice: base64OfText(doc.xml) }),
      });
    const fieldsOf = (body: Body) => ({
      top: Object.keys(body).sort(),
      validation: Object.keys(body.validationResults).sort(),
    });
    const plain = document("simplified", "388");
    const ok = await report(plain);
    expect(ok.status).toBe(200);
    expect(fieldsOf((await ok.json()) as Body)).toEqual(fieldsOf(reported200.body));
    const warned = await report(document("simplified", "381", "<!--warn-->"));
    expect(warned.status).toBe(202);
    const warnedBody = (await warned.json()) as Body;
    expect(warnedBody.validationResults.status).toBe("WARNING");
    expect(Object.keys(warnedBody.validationResults.warningMessages[0]).sort()).toEqual(
      Object.keys(reported202.body.validationResults.warningMessages[0]).sort(),
    );
    const rejected = await report(document("simplified", "383", "<!--reject-->"));
    expect(rejected.status).toBe(400);
    const rejectedBody = (await rejected.json()) as Body;
    expect(rejectedBody.reportingStatus).toBe("NOT_REPORTED");
    expect(Object.keys(rejectedBody.validationResults.errorMessages[0]).sort()).toEqual(
      Object.keys(reported400.body.validationResults.errorMessages[0]).sort(),
    );
    const again = await report(plain);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual(reported409.body);
  });
});

describe("ZATCA: onboarding and reporting against the stand-in, through the adapter", () => {
  it("keys → CSR → compliance CSID (OTP) → six compliance checks → production CSID → reporting → clearance", async () => {
    const api = standIn();
    const key = generateKeyPair();
    const csr = buildCsr(key, fields());
    const compliance = await api.complianceCsid(csr, ZATCA_STAND_IN_OTP);
    expect(compliance).toMatchObject({ outcome: "issued", status: 200, csid: { disposition: "ISSUED" } });
    if (compliance.outcome !== "issued") return;
    expect(compliance.csid.request_id).toMatch(/^\d{13}$/);
    expect(compliance.csid.secret).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const login = credentialsOf(compliance.csid);

    // Not before the six documents passed.
    const early = await api.productionCsid(login, compliance.csid.request_id);
    expect(early).toMatchObject({ outcome: "rejected", status: 400, errors: [{ code: "Missing-ComplianceSteps" }] });

    for (const [i, doc] of ALL_SIX.entries()) {
      const result = await api.complianceCheck(login, doc);
      expect(result.outcome, `document ${i}`).toBe("accepted");
      expect(result.zatca_status).toBe(i < 3 ? "CLEARED" : "REPORTED");
      if (i === 2) {
        // Halfway: still refused, naming what is missing.
        const half = await api.productionCsid(login, compliance.csid.request_id);
        expect(half.outcome).toBe("rejected");
        if (half.outcome === "rejected")
          expect(half.errors[0].message).toContain(
            "[simplified-compliant,simplified-credit-note-compliant,simplified-debit-note-compliant]",
          );
      }
    }
    expect(await zatcaCompliancePassed(env.KV, compliance.csid.request_id)).toEqual([...COMPLIANCE_STEPS]);

    const production = await api.productionCsid(login, compliance.csid.request_id);
    expect(production).toMatchObject({ outcome: "issued", status: 200 });
    if (production.outcome !== "issued") return;
    expect(production.csid.request_id).not.toBe(compliance.csid.request_id);
    const productionLogin = credentialsOf(production.csid);

    // The compliance CSID does not report; the production one does.
    expect((await api.report(login, document("simplified", "388"))).outcome).toBe("unauthorized");
    const simplified = document("simplified", "388");
    const reported = await api.report(productionLogin, simplified);
    expect(reported).toMatchObject({
      outcome: "accepted",
      status: 200,
      zatca_status: "REPORTED",
      errors: [],
      warnings: [],
    });
    expect(await loadZatcaDocument(env.KV, simplified.uuid)).toMatchObject({
      status: "REPORTED",
      endpoint: "reporting",
    });

    const standard = document("standard", "388");
    const cleared = await api.clear(productionLogin, standard);
    expect(cleared).toMatchObject({ outcome: "accepted", status: 200, zatca_status: "CLEARED" });
    expect(cleared.cleared_xml).toBe(standard.xml);

    // The production CSID's certificate is for the same EGS as the CSR.
    const certificate = certificateOf(production.csid.binary_security_token);
    expect(nameFields(certificate.tbsCertificate.subject)).toEqual(readCsr(csr).subject);
  });

  it("a bad or missing OTP, a CSR that is not ZATCA's: refused with the documented error shape", async () => {
    const api = standIn();
    const csr = buildCsr(generateKeyPair(), fields());
    expect(await api.complianceCsid(csr, "111111")).toEqual({
      outcome: "rejected",
      status: 400,
      errors: [{ code: "Invalid-OTP", message: "The provided OTP is invalid", category: "" }],
    });
    expect(await api.complianceCsid(csr, "")).toMatchObject({ outcome: "rejected", errors: [{ code: "Missing-OTP" }] });
    expect(await api.complianceCsid("bm90IGEgY3Ny", ZATCA_STAND_IN_OTP)).toMatchObject({
      outcome: "rejected",
      errors: [{ code: "Invalid-CSR" }],
    });
    // A CSR whose signature does not verify (its signed part altered after signing).
    const pem = textOfBase64(csr);
    const der = bytesOfBase64(pem.replace(/-----[^-]+-----/g, ""));
    der[der.indexOf(0x52)] = 0x53; // "Riyadh Branch" → "Siyadh Branch"
    const tampered = btoa(
      `-----BEGIN CERTIFICATE REQUEST-----\n${btoa(String.fromCharCode(...der))}\n-----END CERTIFICATE REQUEST-----\n`,
    );
    const refused = await api.complianceCsid(tampered, ZATCA_STAND_IN_OTP);
    expect(refused).toMatchObject({ outcome: "rejected", errors: [{ code: "Invalid-CSR" }] });
    if (refused.outcome === "rejected") expect(refused.errors[0].message).toMatch(/signature does not verify/);
  });

  it("bad auth on every invoice call: unauthorized", async () => {
    const { api, compliance, production } = await onboarded();
    const wrongSecret = { ...credentialsOf(production), secret: "x" };
    const stranger = { binary_security_token: btoa("MIIB"), secret: "x" };
    const doc = document("simplified", "388");
    for (const login of [wrongSecret, stranger]) {
      expect(await api.report(login, doc)).toMatchObject({ outcome: "unauthorized", status: 401 });
      expect(await api.clear(login, document("standard", "388"))).toMatchObject({ outcome: "unauthorized" });
      expect(await api.complianceCheck(login, doc)).toMatchObject({ outcome: "unauthorized" });
      expect(await api.productionCsid(login, compliance.request_id)).toMatchObject({ outcome: "unauthorized" });
    }
    // Each CSID for its own calls only.
    expect((await api.complianceCheck(credentialsOf(production), doc)).outcome).toBe("unauthorized");
    expect((await api.clear(credentialsOf(compliance), document("standard", "388"))).outcome).toBe("unauthorized");
  });

  it("rejected: 400 with the checker's errors, nothing recorded; warnings: 202, recorded; a duplicate: 409 / 208", async () => {
    const { api, production } = await onboarded();
    const login = credentialsOf(production);
    const bad = document("simplified", "388", "<!--reject-->");
    const rejected = await api.report(login, bad);
    expect(rejected).toMatchObject({
      outcome: "rejected",
      status: 400,
      zatca_status: "NOT_REPORTED",
      errors: [{ code: "BR-KSA-37", category: "KSA" }],
    });
    expect(await loadZatcaDocument(env.KV, bad.uuid)).toBeNull();

    const warned = document("simplified", "381", "<!--warn-->");
    const accepted = await api.report(login, warned);
    expect(accepted).toMatchObject({
      outcome: "accepted_with_warnings",
      status: 202,
      zatca_status: "REPORTED",
      warnings: [{ code: "BR-KSA-98", category: "KSA" }],
      errors: [],
    });
    expect(await api.report(login, warned)).toMatchObject({ outcome: "duplicate", status: 409 });

    const standard = document("standard", "383", "<!--warn-->");
    expect(await api.clear(login, standard)).toMatchObject({
      outcome: "accepted_with_warnings",
      status: 202,
      zatca_status: "CLEARED",
    });
    expect(await api.clear(login, standard)).toMatchObject({ outcome: "duplicate", status: 208 });

    // Reporting takes simplified documents, clearance standard ones.
    expect(await api.report(login, document("standard", "388"))).toMatchObject({
      outcome: "rejected",
      errors: [{ code: "invoice-type" }],
    });
    expect(await api.clear(login, document("simplified", "388"))).toMatchObject({
      outcome: "rejected",
      errors: [{ code: "invoice-type" }],
    });
  });

  it("a transient failure is retry; the same call succeeds once the stand-in recovers", async () => {
    const { api, production } = await onboarded();
    const doc = document("simplified", "388");
    await failZatcaNext(env.KV, 2);
    try {
      expect(await api.report(credentialsOf(production), doc)).toMatchObject({ outcome: "retry", status: 503 });
      expect(await api.complianceCsid(buildCsr(generateKeyPair(), fields()), ZATCA_STAND_IN_OTP)).toMatchObject({
        outcome: "retry",
        status: 503,
      });
      expect(await api.report(credentialsOf(production), doc)).toMatchObject({ outcome: "accepted" });
    } finally {
      await failZatcaNext(env.KV, 0);
    }
  });

  it("clearance switched off: 303, report instead", async () => {
    const { api, production } = await onboarded();
    await setZatcaClearance(env.KV, false);
    try {
      expect(await api.clear(credentialsOf(production), document("standard", "388"))).toMatchObject({
        outcome: "clearance_off",
        status: 303,
      });
    } finally {
      await setZatcaClearance(env.KV, true);
    }
  });

  it("the production CSID is refused until each of the six passed, a failed check counting for nothing", async () => {
    const api = standIn();
    const { csid } = await complianceCsid(api);
    const login = credentialsOf(csid);
    expect((await api.complianceCheck(login, document("standard", "381", "<!--reject-->"))).outcome).toBe("rejected");
    for (const doc of ALL_SIX.filter((d) => documentKind(d.xml)!.step !== "standard-credit-note-compliant"))
      expect((await api.complianceCheck(login, doc)).outcome).toBe("accepted");
    const refused = await api.productionCsid(login, csid.request_id);
    expect(refused).toMatchObject({ outcome: "rejected", errors: [{ code: "Missing-ComplianceSteps" }] });
    if (refused.outcome === "rejected") expect(refused.errors[0].message).toContain("[standard-credit-note-compliant]");
    // Another compliance request's ID is not this CSID's.
    expect(await api.productionCsid(login, "1000000000000")).toMatchObject({ outcome: "rejected" });
    expect((await api.complianceCheck(login, document("standard", "381"))).outcome).toBe("accepted");
    expect((await api.productionCsid(login, csid.request_id)).outcome).toBe("issued");
  });

  it("an EGS onboarded for simplified documents only (0100) needs the three simplified checks", async () => {
    const api = standIn();
    const { csid } = await complianceCsid(api, fields({ invoice_type: "0100" }));
    const login = credentialsOf(csid);
    expect(await api.complianceCheck(login, document("standard", "388"))).toMatchObject({ outcome: "rejected" });
    for (const doc of ALL_SIX.slice(3)) expect((await api.complianceCheck(login, doc)).outcome).toBe("accepted");
    expect((await api.productionCsid(login, csid.request_id)).outcome).toBe("issued");
  });

  it("certificates as issued: the CSR's subject, SAN and template, the key, a serial, the validity, signed by the stand-in CA", async () => {
    const now = Date.parse("2026-12-01T09:00:00Z");
    const { compliance, production, csr, key } = await onboarded({
      now: () => now,
      complianceLifetimeMs: 7 * DAY_MS,
      productionLifetimeMs: 365 * DAY_MS,
    });
    const read = readCsr(csr);
    const ca = AsnConvert.parse(await zatcaStandInCa(env.KV), Certificate);
    const caPoint = pointOfSpki(ca.tbsCertificate.subjectPublicKeyInfo);
    const serials = new Set<string>();
    for (const [csid, days] of [
      [compliance, 7],
      [production, 365],
    ] as const) {
      const certificate = certificateOf(csid.binary_security_token);
      const tbs = certificate.tbsCertificate;
      expect(tbs.version).toBe(2); // v3
      expect(certificate.signatureAlgorithm.algorithm).toBe(OID.ecdsaWithSha256);
      expect(
        verifyDer(new Uint8Array(certificate.signatureValue), new Uint8Array(certificate.tbsCertificateRaw!), caPoint),
      ).toBe(true);
      expect(nameFields(tbs.issuer)).toEqual(nameFields(ca.tbsCertificate.subject));
      expect(nameFields(tbs.subject)).toEqual({
        [OID.country]: "SA",
        [OID.organizationUnit]: "Riyadh Branch",
        [OID.organization]: "Souq Edge Trading Co.",
        [OID.commonName]: "TST-886431145-399999999900003",
      });
      expect(AsnConvert.serialize(tbs.subjectPublicKeyInfo)).toEqual(toBuffer(key.publicKeySpki));
      const extensions = tbs.extensions ?? [];
      const san = extensions.find((e) => e.extnID === OID.subjectAltName)!;
      expect(sanFields(AsnConvert.parse(san.extnValue, SubjectAlternativeName))).toEqual(read.sanFields);
      const template = extensions.find((e) => e.extnID === OID.certificateTemplateName)!;
      expect(templateNameOf(new Uint8Array(template.extnValue.buffer))).toBe("TSTZATCA-Code-Signing");
      expect(tbs.validity.notBefore.getTime().getTime()).toBe(now);
      expect(tbs.validity.notAfter.getTime().getTime()).toBe(now + days * DAY_MS);
      const serial = Array.from(new Uint8Array(tbs.serialNumber), (b) => b.toString(16).padStart(2, "0")).join("");
      expect(serial).toMatch(/^[4-7][0-9a-f]{31}$/);
      serials.add(serial);
    }
    expect(serials.size).toBe(2);
  });

  it("an expired production CSID is unauthorized; a renewed one (OTP, new CSR) reports again", async () => {
    let now = Date.now();
    const { api, production } = await onboarded({ now: () => now, productionLifetimeMs: 2 * DAY_MS });
    expect((await api.report(credentialsOf(production), document("simplified", "388"))).outcome).toBe("accepted");
    const renewed = await api.renewProductionCsid(
      credentialsOf(production),
      buildCsr(generateKeyPair(), fields()),
      ZATCA_STAND_IN_OTP,
    );
    expect(renewed.outcome).toBe("issued");
    expect(
      await api.renewProductionCsid(credentialsOf(production), buildCsr(generateKeyPair(), fields()), "000000"),
    ).toMatchObject({
      outcome: "rejected",
      errors: [{ code: "Invalid-OTP" }],
    });
    expect(
      await api.renewProductionCsid(
        credentialsOf(production),
        buildCsr(generateKeyPair(), fields({ vat_number: "300000000000003" })),
        ZATCA_STAND_IN_OTP,
      ),
    ).toMatchObject({ outcome: "rejected", errors: [{ code: "Invalid-CSR" }] });
    now += 3 * DAY_MS;
    expect((await api.report(credentialsOf(production), document("simplified", "388"))).outcome).toBe("unauthorized");
    if (renewed.outcome === "issued")
      expect((await api.report(credentialsOf(renewed.csid), document("simplified", "388"))).outcome).toBe(
        "unauthorized",
      );
  });
});

describe("ZATCA: configuration", () => {
  it("ZATCA_API_BASE set: ZATCA's gateway there; production without it: nothing", () => {
    expect(zatcaFromEnv({ ENVIRONMENT: "production", KV: env.KV })).toBeNull();
    expect(zatcaFromEnv({ ENVIRONMENT: "production", KV: env.KV, ZATCA_API_BASE: " " })).toBeNull();
    expect(
      zatcaFromEnv({ ENVIRONMENT: "production", KV: env.KV, ZATCA_API_BASE: "http://gw-fatoora.zatca.gov.sa" }),
    ).toBeNull();
    expect(
      zatcaFromEnv({ ENVIRONMENT: "production", KV: env.KV, ZATCA_API_BASE: `${ZATCA_BASES.production}/` })?.base,
    ).toBe(ZATCA_BASES.production);
    expect(zatcaFromEnv({ ENVIRONMENT: "test", KV: env.KV, ZATCA_API_BASE: ZATCA_BASES.simulation })?.base).toBe(
      ZATCA_BASES.simulation,
    );
  });

  it("development and test without it: the stand-in, with the default judge", async () => {
    expect(zatcaFromEnv({ ENVIRONMENT: "development", KV: env.KV })?.base).toBe(ZATCA_STAND_IN_BASE);
    const api = zatcaFromEnv({ ENVIRONMENT: "test", KV: env.KV })!;
    const { csid } = await complianceCsid(api);
    expect((await api.complianceCheck(credentialsOf(csid), document("simplified", "388"))).outcome).toBe("accepted");
    const notUbl = { ...document("simplified", "388"), xml: "<Order/>" };
    expect(await api.complianceCheck(credentialsOf(csid), notUbl)).toMatchObject({ outcome: "rejected" });
  });
});
