import { readCertificate } from "./certificate";
import { checkRules, readEssentials } from "./rules";
import { signedPropertiesDigest, verifySignature } from "./stamp";
import type { ZatcaCheckMessage } from "./zatca-stand-in";
import { descendant, invoiceHash, parseXml, textOf } from "./xml";

/**
 * Judges a document the way ZATCA does on receipt: the business rules (rules.ts), then the
 * stamp: the invoice hash recomputed and compared with the signature's digest and the QR's tag 6,
 * the signature verified with the key of the certificate it carries, and the signed properties'
 * and certificate's digests. The stand-in answers with it, and the tests prove documents by it.
 */
export function checkDocument(
  xml: string,
  options: { now?: Date } = {},
): { errors: ZatcaCheckMessage[]; warnings: ZatcaCheckMessage[] } {
  const rules = checkRules(xml, options);
  const errors: ZatcaCheckMessage[] = rules.errors.map((f) => ({ ...f }));
  const warnings: ZatcaCheckMessage[] = rules.warnings.map((f) => ({ ...f }));
  if (errors.some((e) => e.category === "XSD")) return { errors, warnings };
  const fail = (code: string, message: string) => errors.push({ code, category: "KSA", message });
  const root = parseXml(xml).documentElement!;
  if (!descendant(root, "UBLExtensions") || !descendant(root, "SignatureValue")) {
    fail("signature", "The document carries no signature.");
    return { errors, warnings };
  }
  const hash = invoiceHash(xml).base64;
  const digests = [...xml.matchAll(/<ds:DigestValue>([^<]*)<\/ds:DigestValue>/g)].map((m) => m[1]);
  // The signature's references: the invoice, then the signed properties (the certificate's digest follows, inside them).
  if (digests[0] !== hash) fail("invoiceHash", "The invoice hash does not match the signed digest.");
  const qr = readEssentials(xml).invoiceHashInQr;
  if (qr !== undefined && qr !== hash)
    fail("QRCODE_INVALID", "The QR code's invoice hash (tag 6) is not the document's.");
  let cert;
  try {
    cert = readCertificate(textOf(descendant(root, "X509Certificate")));
  } catch {
    fail("certificate", "The signing certificate cannot be read.");
    return { errors, warnings };
  }
  // A certificate is issued to one VAT number: a document naming another seller is not its to sign.
  const sellerVat = textOf(
    descendant(descendant(descendant(root, "AccountingSupplierParty") ?? root, "PartyTaxScheme") ?? root, "CompanyID"),
  );
  if (cert.vatNumber && sellerVat !== cert.vatNumber)
    fail(
      "certificate-permissions",
      `The seller's VAT number ${sellerVat} is not the one the signing certificate was issued for.`,
    );
  if (!verifySignature(hash, textOf(descendant(root, "SignatureValue")), cert.publicKey))
    fail("signature", "The signature does not verify with the certificate's public key.");
  if (digests[1] !== signedPropertiesDigest(xml))
    fail("signed-properties-hashing", "The signed properties' digest does not match them.");
  if (textOf(descendant(descendant(root, "CertDigest") ?? root, "DigestValue")) !== cert.digest)
    fail("certificate-hashing", "The certificate's digest does not match the certificate.");
  return { errors, warnings };
}
