import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { readCertificate } from "../../worker/backend/services/einvoicing/certificate";
import {
  FIRST_PIH,
  readTlv,
  signedPropertiesDigest,
  stampDocument,
  verifySignature,
} from "../../worker/backend/services/einvoicing/stamp";
import { figuresOf, type EInvoiceData } from "../../worker/backend/services/einvoicing/ubl";
import { child, descendant, invoiceHash, parseXml, textOf } from "../../worker/backend/services/einvoicing/xml";
import { standInCertificate } from "../support/einvoice-keys";

const sample = readFileSync(new URL("../fixtures/zatca/simplified-invoice-sample.xml", import.meta.url), "utf8");
const tagOf = (xml: string, local: string) => textOf(descendant(parseXml(xml).documentElement!, local));

describe("ZATCA's published sample simplified invoice", () => {
  it("hashes to the digest the sample states (the invoice hash, canonicalised without extensions, signature and QR)", () => {
    // The facts from the sample: its signature's first reference and its QR tag 6 carry this digest.
    expect(invoiceHash(sample).base64).toBe("Hss2gNFjBY5OJn/5CEVZSSNUMrSf4QlCMxwsioPN6fA=");
    expect(
      new TextDecoder().decode(readTlv(tagOf(sample, "EmbeddedDocumentBinaryObject") && qrOfSample()).get(6)!),
    ).toBe("Hss2gNFjBY5OJn/5CEVZSSNUMrSf4QlCMxwsioPN6fA=");
  });

  it("verifies the sample's signature with its certificate's key, and reads the certificate as the sample names it", () => {
    const cert = readCertificate(tagOf(sample, "X509Certificate"));
    expect(cert.issuerName).toBe(tagOf(sample, "X509IssuerName"));
    expect(cert.serialNumber).toBe(tagOf(sample, "X509SerialNumber"));
    expect(cert.digest).toBe(
      textOf(descendant(descendant(parseXml(sample).documentElement!, "CertDigest")!, "DigestValue")),
    );
    expect(verifySignature(invoiceHash(sample).base64, tagOf(sample, "SignatureValue"), cert.publicKey)).toBe(true);
    // QR tags 8 and 9: the certificate's public key and its CA's signature.
    const qr = readTlv(qrOfSample());
    expect([...qr.get(8)!]).toEqual([...cert.publicKeySpki]);
    expect([...qr.get(9)!]).toEqual([...cert.signature]);
  });
});

function qrOfSample(): string {
  const root = parseXml(sample).documentElement!;
  for (let n = root.firstChild; n; n = n.nextSibling) {
    const e = n as unknown as Parameters<typeof child>[0];
    if (e.localName === "AdditionalDocumentReference" && textOf(child(e, "ID")) === "QR")
      return textOf(descendant(e, "EmbeddedDocumentBinaryObject"));
  }
  throw new Error("no QR");
}

export const SELLER = {
  name: "شركة سوق إيدج | Souq Edge Co.",
  vat_number: "399999999900003",
  crn: "1010010000",
  address: {
    street: "الامير سلطان | Prince Sultan",
    building_number: "2322",
    additional_number: "1234",
    district: "المربع | Al-Murabba",
    city: "الرياض | Riyadh",
    postal_code: "23333",
    country: "SA",
  },
};

const invoice = (over: Partial<EInvoiceData> = {}): EInvoiceData => ({
  kind: "invoice",
  transaction: "simplified",
  number: "INV-000001",
  uuid: "3cf5ee18-ee25-44ea-a444-2c37ba7f28be",
  issued_at: "2026-12-06T08:30:00.000Z",
  icv: 1,
  pih: FIRST_PIH,
  order_number: "1001",
  seller: SELLER,
  buyer: null,
  lines: [
    { name: "سماعة | Headphones", quantity: 2, total: 45_999 },
    { name: "Shipping", quantity: 1, total: 2_500 },
  ],
  discount: 1_000,
  total: 47_499,
  vat_rate: 0.15,
  payment_means: "48",
  ...over,
});

describe("the shop's stamp", () => {
  it("signs a document whose hash, signature, QR and signed properties all check", async () => {
    const key = await standInCertificate();
    const stamped = stampDocument(invoice(), key, "2026-12-06T11:30:00");
    const cert = readCertificate(key.certificate);
    expect(invoiceHash(stamped.xml).base64).toBe(stamped.hash);
    expect(tagOf(stamped.xml, "DigestValue")).toBe(stamped.hash);
    expect(verifySignature(stamped.hash, tagOf(stamped.xml, "SignatureValue"), cert.publicKey)).toBe(true);
    const qr = readTlv(stamped.qr);
    expect(new TextDecoder().decode(qr.get(6))).toBe(stamped.hash);
    expect(new TextDecoder().decode(qr.get(4))).toBe("474.99");
    expect(qr.size).toBe(9);
    const digests = [...stamped.xml.matchAll(/<ds:DigestValue>([^<]*)</g)].map((m) => m[1]);
    expect(digests[1]).toBe(signedPropertiesDigest(stamped.xml));
    expect(secp256k1.getPublicKey(key.privateKey, false)).toEqual(cert.publicKey);
  });

  it("totals what the shop charged, its VAT within BR-CO-17's tolerance of taxable × rate", () => {
    const f = figuresOf(invoice());
    expect(f.payable).toBe(47_499);
    expect(f.tax_inclusive).toBe(47_499);
    expect(f.rounding).toBe(0);
    expect(f.tax_exclusive).toBe(f.line_extension - f.allowance);
    expect(Math.abs(f.vat - Math.round(f.tax_exclusive * 0.15))).toBeLessThan(100);
  });
});
