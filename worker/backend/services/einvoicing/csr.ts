import { secp256k1 } from "@noble/curves/secp256k1.js";
import { CertificationRequest, CertificationRequestInfo, Attributes } from "@peculiar/asn1-csr";
import { AsnConvert, OctetString } from "@peculiar/asn1-schema";
import {
  AlgorithmIdentifier,
  Attribute,
  AttributeTypeAndValue,
  AttributeValue,
  Extension,
  Extensions,
  GeneralName,
  Name,
  RelativeDistinguishedName,
  SubjectAlternativeName,
  SubjectPublicKeyInfo,
} from "@peculiar/asn1-x509";
import * as v from "valibot";

/**
 * The EGS unit's key and its certificate signing request, as ZATCA's onboarding takes them.
 *
 * Sources: ZATCA's "Developer Portal User Manual" (v3, §4.3 and appendix: the CSR's fields), the
 * Fatoora SDK's `Data/Input/csr-config-example-EN.properties` (csr.common.name,
 * csr.serial.number "1-…|2-…|3-…", csr.organization.identifier, csr.organization.unit.name,
 * csr.organization.name, csr.country.name, csr.invoice.type, csr.location.address,
 * csr.industry.business.category) and the OpenSSL configuration it stands for, and the
 * Integration Sandbox's swagger ("e-Invoicing Sandbox Release (2.1.0)"), whose example `csr`
 * decodes to the PEM text of a request: the API field is base64 of the whole PEM text.
 *
 * - Keys: ECDSA on secp256k1 (the SDK's `ecparam -name secp256k1`), the public key uncompressed
 *   in its SubjectPublicKeyInfo (id-ecPublicKey, namedCurve 1.3.132.0.10).
 * - Subject: C=SA (PrintableString), OU, O, CN (UTF8String), in that order.
 * - Extension request (PKCS#9 1.2.840.113549.1.9.14) with:
 *   - Microsoft's certificate template name (1.3.6.1.4.1.311.20.2) as a PrintableString:
 *     `ZATCA-Code-Signing` (production, core), `PREZATCA-Code-Signing` (simulation),
 *     `TSTZATCA-Code-Signing` (developer portal sandbox);
 *   - SubjectAltName holding one directoryName: SN (2.5.4.4) the EGS serial "1-<solution>|2-<model>|3-<serial>",
 *     UID (0.9.2342.19200300.100.1.1) the VAT number, title (2.5.4.12) the functionality map
 *     ("1100": standard and simplified), registeredAddress (2.5.4.26) the branch's address,
 *     businessCategory (2.5.4.15) the industry.
 * - Signed ECDSA-SHA256 (1.2.840.10045.4.3.2), the signature DER-encoded.
 *
 * Keys are bytes the caller keeps (sealed in storage); nothing here logs or returns them in text.
 */

export type ZatcaEnvironment = "developer-portal" | "simulation" | "production";
export const ZATCA_ENVIRONMENTS = ["developer-portal", "simulation", "production"] as const;

/** The certificate template each environment's CA issues from. */
export const CSR_TEMPLATE_NAMES: Record<ZatcaEnvironment, string> = {
  production: "ZATCA-Code-Signing",
  simulation: "PREZATCA-Code-Signing",
  "developer-portal": "TSTZATCA-Code-Signing",
};

export const OID = {
  ecPublicKey: "1.2.840.10045.2.1",
  secp256k1: "1.3.132.0.10",
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  extensionRequest: "1.2.840.113549.1.9.14",
  certificateTemplateName: "1.3.6.1.4.1.311.20.2",
  subjectAltName: "2.5.29.17",
  country: "2.5.4.6",
  organizationUnit: "2.5.4.11",
  organization: "2.5.4.10",
  commonName: "2.5.4.3",
  surname: "2.5.4.4",
  uid: "0.9.2342.19200300.100.1.1",
  title: "2.5.4.12",
  registeredAddress: "2.5.4.26",
  businessCategory: "2.5.4.15",
} as const;

export interface ZatcaKeyPair {
  /** 32 bytes: the secp256k1 secret scalar. Never logged. */
  privateKey: Uint8Array;
  /** DER SubjectPublicKeyInfo (id-ecPublicKey, secp256k1, uncompressed point). */
  publicKeySpki: Uint8Array;
}

/** DER of an OBJECT IDENTIFIER for the named curve secp256k1 (06 05 2B 81 04 00 0A). */
const SECP256K1_PARAMS = new Uint8Array([0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x0a]);

const toBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** The SubjectPublicKeyInfo of a secp256k1 public point (given compressed or not; written uncompressed). */
export function spkiOfPoint(point: Uint8Array): SubjectPublicKeyInfo {
  const uncompressed = secp256k1.Point.fromBytes(point).toBytes(false);
  return new SubjectPublicKeyInfo({
    algorithm: new AlgorithmIdentifier({ algorithm: OID.ecPublicKey, parameters: toBuffer(SECP256K1_PARAMS) }),
    subjectPublicKey: toBuffer(uncompressed),
  });
}

/** The DER SubjectPublicKeyInfo of a private key's public point. */
export function publicKeySpkiOf(privateKey: Uint8Array): Uint8Array {
  return new Uint8Array(AsnConvert.serialize(spkiOfPoint(secp256k1.getPublicKey(privateKey, false))));
}

/** The public point inside a secp256k1 SubjectPublicKeyInfo; throws for another key type or curve. */
export function pointOfSpki(spki: SubjectPublicKeyInfo): Uint8Array {
  const params = spki.algorithm.parameters ? new Uint8Array(spki.algorithm.parameters) : null;
  if (
    spki.algorithm.algorithm !== OID.ecPublicKey ||
    !params ||
    params.length !== SECP256K1_PARAMS.length ||
    params.some((b, i) => b !== SECP256K1_PARAMS[i])
  )
    throw new CsrError("The public key is not an EC key on secp256k1.");
  return new Uint8Array(spki.subjectPublicKey);
}

/** A fresh secp256k1 key for an EGS unit (from the runtime's CSPRNG). */
export function generateKeyPair(): ZatcaKeyPair {
  const privateKey = secp256k1.utils.randomSecretKey();
  return { privateKey, publicKeySpki: publicKeySpkiOf(privateKey) };
}

/** ECDSA-SHA256 over `data` with a secp256k1 key, DER-encoded (what X.509 and PKCS#10 carry). */
export function signDer(data: Uint8Array, privateKey: Uint8Array): Uint8Array {
  return secp256k1.sign(data, privateKey, { format: "der", prehash: true });
}

/** Whether `signature` (DER) is ECDSA-SHA256 over `data` by the public point (high-S accepted, as OpenSSL signs). */
export function verifyDer(signature: Uint8Array, data: Uint8Array, point: Uint8Array): boolean {
  try {
    return secp256k1.verify(signature, data, point, { format: "der", prehash: true, lowS: false });
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// The fields

/** The CSR's fields or the CSR itself is not what ZATCA takes; `issues` says each problem. */
export class CsrError extends Error {
  readonly issues: string[];
  constructor(message: string, issues: string[] = [message]) {
    super(message);
    this.name = "CsrError";
    this.issues = issues;
  }
}

const text = (what: string, max = 200) =>
  v.pipe(
    v.string(`${what} must be text.`),
    v.trim(),
    v.minLength(1, `${what} is required.`),
    v.maxLength(max, `${what} must be at most ${max} characters.`),
  );
const serialPart = (what: string) =>
  v.pipe(text(what, 64), v.regex(/^[^|]+$/, `${what} must not contain "|" (it separates the EGS serial's parts).`));

export const CsrFieldsSchema = v.pipe(
  v.object({
    /** Which ZATCA environment the certificate is for: picks the template name. */
    environment: v.picklist(ZATCA_ENVIRONMENTS, "The environment is developer-portal, simulation or production."),
    /** CN: the EGS unit's name (the SDK's csr.common.name, e.g. "TST-886431145-399999999900003"). */
    common_name: text("The common name (CN)", 64),
    /** O: the taxpayer's name. */
    organization_name: text("The organization name (O)", 64),
    /** OU: the branch; for a VAT group, the member's 10-digit TIN. */
    organization_unit: text("The organization unit (OU)", 64),
    /** UID: the VAT registration number, 15 digits starting and ending with 3. */
    vat_number: v.pipe(
      v.string("The VAT number must be text."),
      v.trim(),
      v.regex(/^3\d{13}3$/, "The VAT number (UID) is 15 digits, starting and ending with 3."),
    ),
    /** SN, "1-<solution>|2-<model>|3-<serial>": the EGS's solution name, model or version, and serial (a UUID). */
    egs: v.object({
      solution: serialPart("The EGS solution name"),
      model: serialPart("The EGS model"),
      serial: serialPart("The EGS serial number"),
    }),
    /** title: the functionality map, 4 binary digits over "TSCZ" (1100: standard and simplified). */
    invoice_type: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[01]{4}$/, 'The invoice type is 4 binary digits, e.g. "1100" (standard and simplified).'),
        v.check((s) => s.slice(0, 2) !== "00", "The invoice type must allow standard or simplified invoices."),
      ),
      "1100",
    ),
    /** registeredAddress: where the EGS unit is (the branch's address; a website is allowed). */
    location: text("The location (registeredAddress)"),
    /** businessCategory: the taxpayer's industry. */
    industry: text("The industry (businessCategory)", 64),
  }),
  v.forward(
    v.check(
      (f) => f.vat_number.charAt(10) !== "1" || /^\d{10}$/.test(f.organization_unit),
      "For a VAT group (the VAT number's 11th digit is 1) the organization unit (OU) is the member's 10-digit TIN.",
    ),
    ["organization_unit"],
  ),
);

export type CsrFieldsInput = v.InferInput<typeof CsrFieldsSchema>;
export type CsrFields = v.InferOutput<typeof CsrFieldsSchema>;

/** The fields checked and trimmed; a CsrError with every problem otherwise. */
export function parseCsrFields(input: unknown): CsrFields {
  const result = v.safeParse(CsrFieldsSchema, input);
  if (result.success) return result.output;
  const issues = result.issues.map((issue) => {
    const path = issue.path?.map((p) => String(p.key)).join(".");
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  throw new CsrError(`The CSR's fields are not valid: ${issues.join(" ")}`, issues);
}

/** "1-<solution>|2-<model>|3-<serial>", the SN of the SAN. */
export const egsSerial = (egs: CsrFields["egs"]) => `1-${egs.solution}|2-${egs.model}|3-${egs.serial}`;

// ---------------------------------------------------------------------------------------------
// Building

const utf8 = (type: string, value: string) =>
  new RelativeDistinguishedName([
    new AttributeTypeAndValue({ type, value: new AttributeValue({ utf8String: value }) }),
  ]);
const printable = (type: string, value: string) =>
  new RelativeDistinguishedName([
    new AttributeTypeAndValue({ type, value: new AttributeValue({ printableString: value }) }),
  ]);

/** DER of a PrintableString (the template name is short: one length byte). */
function printableStringDer(value: string): Uint8Array {
  if (!/^[A-Za-z0-9 '()+,\-./:=?]*$/.test(value) || value.length > 127)
    throw new CsrError(`"${value}" is not a short PrintableString.`);
  return new Uint8Array([0x13, value.length, ...Array.from(value, (c) => c.charCodeAt(0))]);
}

/** The subject Name: C, OU, O, CN. */
export function subjectOf(fields: CsrFields): Name {
  return new Name([
    printable(OID.country, "SA"),
    utf8(OID.organizationUnit, fields.organization_unit),
    utf8(OID.organization, fields.organization_name),
    utf8(OID.commonName, fields.common_name),
  ]);
}

/** The SubjectAltName's directoryName: SN, UID, title, registeredAddress, businessCategory. */
export function sanOf(fields: CsrFields): SubjectAlternativeName {
  return new SubjectAlternativeName([
    new GeneralName({
      directoryName: new Name([
        utf8(OID.surname, egsSerial(fields.egs)),
        utf8(OID.uid, fields.vat_number),
        utf8(OID.title, fields.invoice_type),
        utf8(OID.registeredAddress, fields.location),
        utf8(OID.businessCategory, fields.industry),
      ]),
    }),
  ]);
}

export const templateNameExtension = (templateName: string) =>
  new Extension({
    extnID: OID.certificateTemplateName,
    critical: false,
    extnValue: new OctetString(printableStringDer(templateName)),
  });

export const sanExtension = (san: SubjectAlternativeName) =>
  new Extension({ extnID: OID.subjectAltName, critical: false, extnValue: new OctetString(AsnConvert.serialize(san)) });

const ECDSA_SHA256 = () => new AlgorithmIdentifier({ algorithm: OID.ecdsaWithSha256 });
export { ECDSA_SHA256 as ecdsaSha256Algorithm };

/** Standard base64 of bytes. */
export function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Bytes of standard base64 (whitespace ignored); throws on anything else. */
export function bytesOfBase64(text: string): Uint8Array<ArrayBuffer> {
  const clean = text.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) throw new CsrError("Not base64.");
  return Uint8Array.from(atob(clean), (c) => c.charCodeAt(0));
}

/** PEM text of DER bytes under `label`, 64 characters a line (RFC 7468), ending with a newline. */
export function pem(label: string, der: Uint8Array): string {
  const body = base64Of(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${body.join("\n")}\n-----END ${label}-----\n`;
}

/** The DER inside PEM text of `label`; throws when there is none. */
export function derOfPem(label: string, text: string): Uint8Array {
  const m = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`).exec(text);
  if (!m) throw new CsrError(`No "${label}" PEM block.`);
  return bytesOfBase64(m[1]);
}

/** UTF-8 text as base64 (the API's `csr`, and an invoice's `invoice`). */
export const base64OfText = (value: string) => base64Of(new TextEncoder().encode(value));
/** base64 of UTF-8 text, as text. */
export const textOfBase64 = (value: string) => new TextDecoder().decode(bytesOfBase64(value));

export interface BuiltCsr {
  /** The API's `csr`: base64 of the PEM text. */
  csr: string;
  /** The PEM text. */
  pem: string;
  /** The PKCS#10 DER. */
  der: Uint8Array;
}

/**
 * The CSR of `key` for `fields` (checked with parseCsrFields), signed with the key. Returns the
 * API's `csr` value (base64 of the PEM) with the PEM and DER beside it.
 */
export function buildCsrDocument(privateKey: Uint8Array, input: CsrFieldsInput | CsrFields): BuiltCsr {
  if (!secp256k1.utils.isValidSecretKey(privateKey)) throw new CsrError("The private key is not a secp256k1 key.");
  const fields = parseCsrFields(input);
  const extensions = new Extensions([
    templateNameExtension(CSR_TEMPLATE_NAMES[fields.environment]),
    sanExtension(sanOf(fields)),
  ]);
  const info = new CertificationRequestInfo({
    version: 0,
    subject: subjectOf(fields),
    subjectPKInfo: spkiOfPoint(secp256k1.getPublicKey(privateKey, false)),
    attributes: new Attributes([
      new Attribute({ type: OID.extensionRequest, values: [AsnConvert.serialize(extensions)] }),
    ]),
  });
  const infoDer = new Uint8Array(AsnConvert.serialize(info));
  const request = new CertificationRequest({
    certificationRequestInfo: info,
    signatureAlgorithm: ECDSA_SHA256(),
    signature: toBuffer(signDer(infoDer, privateKey)),
  });
  const der = new Uint8Array(AsnConvert.serialize(request));
  const text = pem("CERTIFICATE REQUEST", der);
  return { csr: base64OfText(text), pem: text, der };
}

/** The API's `csr` value (base64 of the PEM text) for `key` and `fields`. */
export function buildCsr(
  key: Uint8Array | Pick<ZatcaKeyPair, "privateKey">,
  fields: CsrFieldsInput | CsrFields,
): string {
  return buildCsrDocument(key instanceof Uint8Array ? key : key.privateKey, fields).csr;
}

// ---------------------------------------------------------------------------------------------
// Reading (the stand-in checks what it is sent; tests read back what was built)

/** A Name as { oid: value } (the last value of an OID wins; ZATCA's names repeat none). */
export function nameFields(name: Name): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rdn of name) for (const atv of rdn) out[atv.type] = atv.value.toString();
  return out;
}

/** The fields of a ZATCA SAN directoryName, by name. */
export interface SanFields {
  serial: string | null;
  vat_number: string | null;
  invoice_type: string | null;
  location: string | null;
  industry: string | null;
}

export function sanFields(san: SubjectAlternativeName): SanFields {
  const dir = san.find((g) => g.directoryName)?.directoryName;
  const f = dir ? nameFields(dir) : {};
  return {
    serial: f[OID.surname] ?? null,
    vat_number: f[OID.uid] ?? null,
    invoice_type: f[OID.title] ?? null,
    location: f[OID.registeredAddress] ?? null,
    industry: f[OID.businessCategory] ?? null,
  };
}

/** The PrintableString (or other string) inside the template name extension's value. */
export function templateNameOf(extnValue: Uint8Array): string | null {
  // A short string: tag (PrintableString 0x13, UTF8String 0x0c, BMPString 0x1e read as bytes), length, bytes.
  if (extnValue.length < 2 || extnValue[1] !== extnValue.length - 2) return null;
  if (extnValue[0] !== 0x13 && extnValue[0] !== 0x0c) return null;
  return new TextDecoder().decode(extnValue.subarray(2));
}

export interface ReadCsr {
  request: CertificationRequest;
  der: Uint8Array;
  /** The subject's fields by OID (OID.country, OID.organizationUnit, OID.organization, OID.commonName). */
  subject: Record<string, string>;
  subjectName: Name;
  publicKeySpki: SubjectPublicKeyInfo;
  /** The public point (uncompressed or compressed, as sent). */
  publicKey: Uint8Array;
  templateName: string | null;
  san: SubjectAlternativeName | null;
  sanFields: SanFields;
  /** Whether the request is signed ECDSA-SHA256 by its own key. */
  signatureValid: boolean;
}

/**
 * Reads a CSR given as the API's `csr` (base64 of the PEM text), as PEM text, or as DER; throws
 * CsrError when it is none of them or not a PKCS#10 request with a secp256k1 key.
 */
export function readCsr(csr: string | Uint8Array): ReadCsr {
  let der: Uint8Array;
  if (csr instanceof Uint8Array) der = csr;
  else if (csr.includes("-----BEGIN")) der = derOfPem("CERTIFICATE REQUEST", csr);
  else {
    let decoded: string;
    try {
      decoded = textOfBase64(csr);
    } catch {
      throw new CsrError("The CSR is not base64 of a PEM certificate request.");
    }
    der = derOfPem("CERTIFICATE REQUEST", decoded);
  }
  let request: CertificationRequest;
  try {
    request = AsnConvert.parse(der, CertificationRequest);
  } catch {
    throw new CsrError("The CSR is not a PKCS#10 certificate request.");
  }
  const info = request.certificationRequestInfo;
  const publicKey = pointOfSpki(info.subjectPKInfo);
  const extensions: Extension[] = [];
  for (const attribute of info.attributes ?? [])
    if (attribute.type === OID.extensionRequest)
      for (const value of attribute.values) extensions.push(...AsnConvert.parse(value, Extensions));
  const template = extensions.find((e) => e.extnID === OID.certificateTemplateName);
  const sanExt = extensions.find((e) => e.extnID === OID.subjectAltName);
  const san = sanExt ? AsnConvert.parse(sanExt.extnValue, SubjectAlternativeName) : null;
  const infoDer = request.certificationRequestInfoRaw
    ? new Uint8Array(request.certificationRequestInfoRaw)
    : new Uint8Array(AsnConvert.serialize(info));
  const signatureValid =
    request.signatureAlgorithm.algorithm === OID.ecdsaWithSha256 &&
    verifyDer(new Uint8Array(request.signature), infoDer, publicKey);
  return {
    request,
    der,
    subject: nameFields(info.subject),
    subjectName: info.subject,
    publicKeySpki: info.subjectPKInfo,
    publicKey,
    templateName: template ? templateNameOf(new Uint8Array(template.extnValue.buffer)) : null,
    san,
    sanFields: san
      ? sanFields(san)
      : { serial: null, vat_number: null, invoice_type: null, location: null, industry: null },
    signatureValid,
  };
}
