import { AsnConvert } from "@peculiar/asn1-schema";
import { bytesOfBase64 } from "./csr";
import {
  Certificate,
  SubjectAlternativeName,
  SubjectPublicKeyInfo,
  id_ce_subjectAltName,
  type Name,
} from "@peculiar/asn1-x509";
import { hexDigestBase64 } from "./xml";

/**
 * What the e-invoices need from the certificate ZATCA issued: the issuer and serial the XAdES
 * properties name, the public key (QR tag 8, and to verify), the certificate's own signature (QR
 * tag 9 on simplified documents) and its validity (the console warns before it ends).
 */
export interface CertificateFacts {
  /** The certificate's base64 DER text, as the signature's X509Certificate carries it. */
  base64: string;
  /** RFC 4514 order ("CN=…, DC=…"), as ZATCA's samples write X509IssuerName. */
  issuerName: string;
  subjectName: string;
  /** Decimal, as X509SerialNumber. */
  serialNumber: string;
  /** SubjectPublicKeyInfo DER (QR tag 8). */
  publicKeySpki: Uint8Array;
  /** The uncompressed secp256k1 point (65 bytes), to verify signatures. */
  publicKey: Uint8Array;
  /** The issuer's signature over the certificate, DER (QR tag 9). */
  signature: Uint8Array;
  notBefore: Date;
  notAfter: Date;
  /** base64 of the hex SHA-256 of the base64 text: ZATCA's CertDigest. */
  digest: string;
  /** The VAT number ZATCA issued it for (the SAN's UID): documents it signs must be that seller's. */
  vatNumber: string | null;
}

const OID_NAMES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.6": "C",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "0.9.2342.19200300.100.1.25": "DC",
  "0.9.2342.19200300.100.1.1": "UID",
  "2.5.4.4": "SN",
  "2.5.4.5": "SERIALNUMBER",
};

/** A distinguished name in RFC 4514's order: the last RDN first, joined by ", ". */
export function nameText(name: Name): string {
  return [...name]
    .reverse()
    .map((rdn) => [...rdn].map((atv) => `${OID_NAMES[atv.type] ?? atv.type}=${atv.value.toString()}`).join("+"))
    .join(", ");
}

const toDecimal = (bytes: Uint8Array) => {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n.toString();
};

/** Reads a certificate from its base64 DER (ZATCA's binarySecurityToken, once base64-decoded). */
export function readCertificate(base64Der: string): CertificateFacts {
  const text = base64Der.replace(/-----[^-]+-----|\s/g, "");
  const cert = AsnConvert.parse(bytesOfBase64(text), Certificate);
  const tbs = cert.tbsCertificate;
  const spki = new Uint8Array(AsnConvert.serialize(tbs.subjectPublicKeyInfo));
  const time = (t: typeof tbs.validity.notBefore) => t.getTime();
  return {
    base64: text,
    issuerName: nameText(tbs.issuer),
    subjectName: nameText(tbs.subject),
    serialNumber: toDecimal(new Uint8Array(tbs.serialNumber)),
    publicKeySpki: spki,
    publicKey: new Uint8Array(AsnConvert.parse(spki, SubjectPublicKeyInfo).subjectPublicKey),
    signature: new Uint8Array(cert.signatureValue),
    notBefore: time(tbs.validity.notBefore),
    notAfter: time(tbs.validity.notAfter),
    digest: hexDigestBase64(text),
    vatNumber: sanVatNumber(cert),
  };
}

/** ZATCA's binarySecurityToken is the certificate's base64 text, base64-encoded again. */
export const certificateOfToken = (binarySecurityToken: string) => atob(binarySecurityToken);

const UID = "0.9.2342.19200300.100.1.1";

function sanVatNumber(cert: Certificate): string | null {
  const ext = cert.tbsCertificate.extensions?.find((e) => e.extnID === id_ce_subjectAltName);
  if (!ext) return null;
  const san = AsnConvert.parse(ext.extnValue, SubjectAlternativeName);
  for (const name of san)
    for (const rdn of name.directoryName ?? [])
      for (const atv of rdn) if (atv.type === UID) return atv.value.toString();
  return null;
}
