import { secp256k1 } from "@noble/curves/secp256k1.js";
import { base64Of, bytesOfBase64 } from "./csr";
import { readCertificate, type CertificateFacts } from "./certificate";
import { figuresOf, riyadhDateTime, sar, ublDocument, type EInvoiceData } from "./ubl";
import {
  XML_DECLARATION,
  canonicalize,
  descendant,
  el,
  hexDigestBase64,
  inheritedNamespaces,
  invoiceHash,
  parseXml,
  serialize,
} from "./xml";

/**
 * The cryptographic stamp ZATCA specifies: the invoice hash, an ECDSA signature on secp256k1 over
 * it in the XAdES structure of the UBL signature extension, with the certificate ZATCA issued, and
 * the QR code with tags 1–9. Pure functions: the key and certificate are passed in, never kept.
 */

/** The hash of "0" as ZATCA writes a first document's previous invoice hash. */
export const FIRST_PIH = "NWZlY2ViNjZmZmM4NmYzOGQ5NTI3ODZjNmQ2OTZjNzljMmRiYzIzOWRkNGU5MWI0NjcyOWQ3M2EyN2ZiNTdlOQ==";

export interface StampKey {
  privateKey: Uint8Array;
  /** The certificate's base64 DER. */
  certificate: string;
}

export interface StampedDocument {
  xml: string;
  /** base64 SHA-256 of the canonical document (the next document's PIH). */
  hash: string;
  /** base64 DER ECDSA signature over the hash. */
  signature: string;
  /** base64 TLV, tags 1–9. */
  qr: string;
}

const DS = "http://www.w3.org/2000/09/xmldsig#";
const XADES = "http://uri.etsi.org/01903/v1.3.2#";
const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
const C14N11 = "http://www.w3.org/2006/12/xml-c14n11";
const XPATH = "http://www.w3.org/TR/1999/REC-xpath-19991116";

/** Tag, one length byte, value; ZATCA's QR fields are each at most 255 bytes. */
export function tlv(fields: (string | Uint8Array)[]): string {
  const bytes: number[] = [];
  fields.forEach((value, i) => {
    const raw = typeof value === "string" ? new TextEncoder().encode(value) : value;
    if (raw.length > 255) throw new Error(`QR tag ${i + 1} is longer than 255 bytes`);
    bytes.push(i + 1, raw.length, ...raw);
  });
  return base64Of(Uint8Array.from(bytes));
}

/** The QR's tags by number, raw bytes (tests and the stand-in read them). */
export function readTlv(base64: string): Map<number, Uint8Array> {
  const raw = bytesOfBase64(base64);
  const tags = new Map<number, Uint8Array>();
  for (let i = 0; i + 2 <= raw.length; i += 2 + raw[i + 1]) tags.set(raw[i], raw.subarray(i + 2, i + 2 + raw[i + 1]));
  return tags;
}

/** The QR code of a stamped document: seller, VAT number, time, totals, hash, signature, key, CA signature. */
export function qrOf(data: EInvoiceData, hash: string, signature: string, cert: CertificateFacts): string {
  const figures = figuresOf(data);
  const { date, time } = riyadhDateTime(data.issued_at);
  return tlv([
    data.seller.name,
    data.seller.vat_number ?? "",
    `${date}T${time}`,
    sar(figures.tax_inclusive),
    sar(figures.vat),
    hash,
    signature,
    cert.publicKeySpki,
    // Tag 9, the certificate's signature by ZATCA's CA, is for simplified documents only.
    ...(data.transaction === "simplified" ? [cert.signature] : []),
  ]);
}

const signedProperties = (signingTime: string, cert: CertificateFacts) =>
  el(
    "xades:SignedProperties",
    { Id: "xadesSignedProperties" },
    el(
      "xades:SignedSignatureProperties",
      {},
      el("xades:SigningTime", {}, signingTime),
      el(
        "xades:SigningCertificate",
        {},
        el(
          "xades:Cert",
          {},
          el(
            "xades:CertDigest",
            {},
            el("ds:DigestMethod", { Algorithm: SHA256 }),
            el("ds:DigestValue", {}, cert.digest),
          ),
          el(
            "xades:IssuerSerial",
            {},
            el("ds:X509IssuerName", {}, cert.issuerName),
            el("ds:X509SerialNumber", {}, cert.serialNumber),
          ),
        ),
      ),
    ),
  );

function signatureExtension(
  hash: string,
  propertiesDigest: string,
  signature: string,
  signingTime: string,
  cert: CertificateFacts,
) {
  const transform = (xpath: string) => el("ds:Transform", { Algorithm: XPATH }, el("ds:XPath", {}, xpath));
  return el(
    "ext:UBLExtension",
    {},
    el("ext:ExtensionURI", {}, "urn:oasis:names:specification:ubl:dsig:enveloped:xades"),
    el(
      "ext:ExtensionContent",
      {},
      el(
        "sig:UBLDocumentSignatures",
        {
          "xmlns:sig": "urn:oasis:names:specification:ubl:schema:xsd:CommonSignatureComponents-2",
          "xmlns:sac": "urn:oasis:names:specification:ubl:schema:xsd:SignatureAggregateComponents-2",
          "xmlns:sbc": "urn:oasis:names:specification:ubl:schema:xsd:SignatureBasicComponents-2",
        },
        el(
          "sac:SignatureInformation",
          {},
          el("cbc:ID", {}, "urn:oasis:names:specification:ubl:signature:1"),
          el("sbc:ReferencedSignatureID", {}, "urn:oasis:names:specification:ubl:signature:Invoice"),
          el(
            "ds:Signature",
            { "xmlns:ds": DS, Id: "signature" },
            el(
              "ds:SignedInfo",
              {},
              el("ds:CanonicalizationMethod", { Algorithm: C14N11 }),
              el("ds:SignatureMethod", { Algorithm: "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256" }),
              el(
                "ds:Reference",
                { Id: "invoiceSignedData", URI: "" },
                el(
                  "ds:Transforms",
                  {},
                  transform("not(//ancestor-or-self::ext:UBLExtensions)"),
                  transform("not(//ancestor-or-self::cac:Signature)"),
                  transform("not(//ancestor-or-self::cac:AdditionalDocumentReference[cbc:ID='QR'])"),
                  el("ds:Transform", { Algorithm: C14N11 }),
                ),
                el("ds:DigestMethod", { Algorithm: SHA256 }),
                el("ds:DigestValue", {}, hash),
              ),
              el(
                "ds:Reference",
                { Type: "http://www.w3.org/2000/09/xmldsig#SignatureProperties", URI: "#xadesSignedProperties" },
                el("ds:DigestMethod", { Algorithm: SHA256 }),
                el("ds:DigestValue", {}, propertiesDigest),
              ),
            ),
            el("ds:SignatureValue", {}, signature),
            el("ds:KeyInfo", {}, el("ds:X509Data", {}, el("ds:X509Certificate", {}, cert.base64))),
            el(
              "ds:Object",
              {},
              el(
                "xades:QualifyingProperties",
                { "xmlns:xades": XADES, Target: "signature" },
                signedProperties(signingTime, cert),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/** The signed properties' digest as the document carries them: base64 of the hex SHA-256 of their canonical form. */
export function signedPropertiesDigest(xml: string): string | null {
  const root = parseXml(xml).documentElement;
  const props = root && descendant(root, "SignedProperties");
  return props ? hexDigestBase64(canonicalize(props, inheritedNamespaces(props))) : null;
}

/**
 * Stamps a document: hashes it, signs the hash, writes the XAdES extension and the QR code.
 * The hash is taken over the document without the parts it excludes, and checked again on the
 * final text, so what is sent is what was signed.
 */
export function stampDocument(data: EInvoiceData, key: StampKey, signingTime: string): StampedDocument {
  const cert = readCertificate(key.certificate);
  const hash = invoiceHash(serialize(ublDocument(data))).base64;
  const signature = base64Of(secp256k1.sign(bytesOfBase64(hash), key.privateKey, { prehash: true, format: "der" }));
  const qr = qrOf(data, hash, signature, cert);
  // The properties' digest is over their canonical form in place, so the document is written
  // once with a placeholder, the digest taken there, then written with it.
  const draft = (digest: string) =>
    XML_DECLARATION +
    serialize(ublDocument(data, { extension: signatureExtension(hash, digest, signature, signingTime, cert), qr }));
  const digest = signedPropertiesDigest(draft(""))!;
  const xml = draft(digest);
  if (invoiceHash(xml).base64 !== hash) throw new Error("The stamped document's hash changed");
  return { xml, hash, signature, qr };
}

/** Signs nothing, checks: the signature in a document verifies over its hash with the certificate's key. */
export function verifySignature(hash: string, signature: string, publicKey: Uint8Array): boolean {
  try {
    return secp256k1.verify(bytesOfBase64(signature), bytesOfBase64(hash), publicKey, { prehash: true, format: "der" });
  } catch {
    return false;
  }
}
