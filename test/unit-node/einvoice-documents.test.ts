import { describe, expect, it } from "vitest";
import { readCertificate } from "../../worker/backend/services/einvoicing/certificate";
import { RULE_IDS, checkRules } from "../../worker/backend/services/einvoicing/rules";
import { FIRST_PIH, readTlv, stampDocument, verifySignature } from "../../worker/backend/services/einvoicing/stamp";
import type { EInvoiceData } from "../../worker/backend/services/einvoicing/ubl";
import { checkDocument } from "../../worker/backend/services/einvoicing/verify";
import { descendant, invoiceHash, parseXml, textOf } from "../../worker/backend/services/einvoicing/xml";
import { standInCertificate } from "../support/einvoice-keys";
import { validateUbl } from "../support/ubl-schema";

/**
 * Every kind of document the shop issues, signed and chained as the shop chains them, proven the
 * way ZATCA receives them: the UBL 2.1 schema, the business rules (rules.ts, each by its ZATCA id),
 * the hash against the signature's digest and QR tag 6, the signature against the certificate's
 * key, and each document's PIH and ICV against the one before it.
 */

const seller = {
  name: "شركة سوق إيدج للإلكترونيات | Souq Edge Electronics Co.",
  vat_number: "300000000000003",
  crn: "1010010000",
  address: {
    street: "طريق الملك فهد | King Fahd Road",
    building_number: "2322",
    additional_number: "1234",
    district: "العليا | Al Olaya",
    city: "الرياض | Riyadh",
    postal_code: "12211",
    country: "SA",
  },
};
const business = {
  name: "شركة الحلول الرقمية | Digital Solutions Co.",
  vat_number: "310122393500003",
  address: {
    street: "Tahlia",
    building_number: "4821",
    additional_number: "7023",
    district: "Olaya",
    city: "Riyadh",
    postal_code: "12211",
    country: "SA",
  },
};

type Kind = `${EInvoiceData["transaction"]} ${EInvoiceData["kind"]}`;

const documents: [Kind, Omit<EInvoiceData, "icv" | "pih" | "uuid">][] = (["simplified", "standard"] as const).flatMap(
  (transaction) => {
    const buyer = transaction === "standard" ? business : { name: "Noura Buyer" };
    const common = {
      transaction,
      issued_at: "2026-12-06T09:15:00.000Z",
      order_number: "SQ-7K2M9Q4X",
      seller,
      buyer,
      vat_rate: 0.15,
      payment_means: "48",
      supply_date: transaction === "standard" ? "2026-12-06" : null,
    } as const;
    const n = transaction === "standard" ? 2 : 1;
    return [
      [
        `${transaction} invoice`,
        {
          ...common,
          kind: "invoice",
          number: `INV-00000${n}`,
          // Two lines, a delivery fee and cash on delivery's fee, an order discount: prices with VAT inside.
          lines: [
            { name: "سماعات لاسلكية | Wireless headphones", quantity: 3, total: 3 * 45_999 },
            { name: "شاحن | Charger", quantity: 1, total: 7_950 },
            { name: "التوصيل | Delivery", quantity: 1, total: 2_500 },
            { name: "رسوم الدفع عند الاستلام | Cash on delivery fee", quantity: 1, total: 1_500 },
          ],
          discount: 5_000,
          total: 3 * 45_999 + 7_950 + 2_500 + 1_500 - 5_000,
        },
      ],
      [
        `${transaction} credit_note`,
        {
          ...common,
          kind: "credit_note",
          number: `CN-00000${n}`,
          billing_reference: `INV-00000${n}`,
          reason: "تالف | Damaged",
          lines: [{ name: "سماعات لاسلكية | Wireless headphones", quantity: 1, total: 45_999 }],
          discount: 0,
          total: 45_999,
        },
      ],
      [
        `${transaction} debit_note`,
        {
          ...common,
          kind: "debit_note",
          number: `DN-00000${n}`,
          billing_reference: `INV-00000${n}`,
          reason: "رسوم إعادة التوصيل | Redelivery fee",
          lines: [{ name: "رسوم إعادة التوصيل | Redelivery fee", quantity: 1, total: 2_300 }],
          discount: 0,
          total: 2_300,
        },
      ],
    ];
  },
);

const TYPE = { invoice: "388", credit_note: "381", debit_note: "383" };

describe("every document the shop issues, as ZATCA receives it", async () => {
  const key = await standInCertificate();
  const cert = readCertificate(key.certificate);
  let pih = FIRST_PIH;
  const chain = documents.map(([kind, data], i) => {
    const stamped = stampDocument({ ...data, icv: i + 1, pih, uuid: crypto.randomUUID() }, key, "2026-12-06T12:15:00");
    const entry = { kind, data, icv: i + 1, pih, ...stamped };
    pih = stamped.hash;
    return entry;
  });
  const now = new Date("2026-12-06T12:00:00Z");

  it.each(chain)("$kind: valid against the UBL 2.1 Invoice schema", async ({ xml }) => {
    expect(await validateUbl(xml, "Invoice")).toEqual({ valid: true, errors: [] });
  });

  it.each(chain)(`$kind: passes every ZATCA business rule that applies (${RULE_IDS.length} rules)`, ({ xml, data }) => {
    const { errors, warnings } = checkRules(xml, { now });
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    const root = parseXml(xml).documentElement!;
    // BR-KSA-06: the type code and the transaction's code; BR-KSA-56: a note names its invoice.
    const typeCode = descendant(root, "InvoiceTypeCode")!;
    expect(textOf(typeCode)).toBe(TYPE[data.kind]);
    expect(typeCode.getAttribute("name")).toBe(data.transaction === "standard" ? "0100000" : "0200000");
    if (data.kind !== "invoice") expect(textOf(descendant(root, "BillingReference"))).toBe(data.billing_reference);
  });

  it.each(chain)(
    "$kind: its hash is the signature's digest and QR tag 6, and the certificate's key verifies it",
    ({ xml, hash, qr, data }) => {
      expect(invoiceHash(xml).base64).toBe(hash);
      const root = parseXml(xml).documentElement!;
      expect(textOf(descendant(root, "DigestValue"))).toBe(hash);
      const tags = readTlv(qr);
      expect(new TextDecoder().decode(tags.get(6))).toBe(hash);
      expect(verifySignature(hash, textOf(descendant(root, "SignatureValue")), cert.publicKey)).toBe(true);
      expect(verifySignature(hash, new TextDecoder().decode(tags.get(7)), cert.publicKey)).toBe(true);
      // Tags 8 and 9: the key, and (simplified documents only) the CA's signature on the certificate.
      expect([...tags.get(8)!]).toEqual([...cert.publicKeySpki]);
      expect(tags.has(9)).toBe(data.transaction === "simplified");
      expect(checkDocument(xml, { now }).errors.filter((e) => e.code !== "certificate-permissions")).toEqual([]);
    },
  );

  it('chains them: each PIH is the hash before it, the first the hash of "0", and ICV rises by one', () => {
    chain.forEach((doc, i) => {
      const root = parseXml(doc.xml).documentElement!;
      const refs = [...doc.xml.matchAll(/<cbc:ID>(ICV|PIH)<\/cbc:ID>(.*?)<\/cac:AdditionalDocumentReference>/g)];
      expect(refs.map((m) => m[1])).toEqual(["ICV", "PIH"]);
      expect(refs[0][2]).toBe(`<cbc:UUID>${i + 1}</cbc:UUID>`);
      expect(refs[1][2]).toContain(`>${i === 0 ? FIRST_PIH : chain[i - 1].hash}<`);
      expect(textOf(descendant(root, "UUID"))).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  it("a tampered document fails: its hash no longer matches the signature and QR", () => {
    const tampered = chain[0].xml.replace(
      '<cbc:PayableAmount currencyID="SAR">',
      '<cbc:PayableAmount currencyID="SAR">1',
    );
    const codes = checkDocument(tampered, { now }).errors.map((e) => e.code);
    expect(codes).toContain("invoiceHash");
    expect(codes).toContain("QRCODE_INVALID");
  });
});
