import { secp256k1 } from "@noble/curves/secp256k1.js";
import { CertificationRequest } from "@peculiar/asn1-csr";
import { AsnConvert } from "@peculiar/asn1-schema";
import { SubjectPublicKeyInfo } from "@peculiar/asn1-x509";
import { describe, expect, it } from "vitest";
import {
  CSR_TEMPLATE_NAMES,
  CsrError,
  OID,
  ZATCA_ENVIRONMENTS,
  buildCsr,
  buildCsrDocument,
  bytesOfBase64,
  derOfPem,
  generateKeyPair,
  pointOfSpki,
  readCsr,
  textOfBase64,
  verifyDer,
  type CsrFieldsInput,
} from "../../worker/backend/services/einvoicing/csr";

// The EGS unit's key and CSR: built with our code, read back with @peculiar/asn1-csr and checked
// with noble, for each of ZATCA's environments.

const fields = (over: Partial<CsrFieldsInput> = {}): CsrFieldsInput => ({
  environment: "simulation",
  common_name: "TST-886431145-399999999900003",
  organization_name: "Souq Edge Trading Co.",
  organization_unit: "Riyadh Branch",
  vat_number: "399999999900003",
  egs: { solution: "SouqEdge", model: "Worker", serial: "ed22f1d8-e6a2-1118-9b58-d9a8f11e445f" },
  invoice_type: "1100",
  location: "King Fahd Road 7070, Riyadh 12211",
  industry: "Retail",
  ...over,
});

describe("ZATCA keys", () => {
  it("a secp256k1 key: 32 secret bytes, an SPKI naming id-ecPublicKey and secp256k1 with the uncompressed point", () => {
    const { privateKey, publicKeySpki } = generateKeyPair();
    expect(privateKey).toHaveLength(32);
    const spki = AsnConvert.parse(publicKeySpki, SubjectPublicKeyInfo);
    expect(spki.algorithm.algorithm).toBe(OID.ecPublicKey);
    const point = pointOfSpki(spki);
    expect(point).toHaveLength(65);
    expect(point).toEqual(secp256k1.getPublicKey(privateKey, false));
    expect(generateKeyPair().privateKey).not.toEqual(privateKey);
  });
});

describe("ZATCA CSR", () => {
  for (const environment of ZATCA_ENVIRONMENTS) {
    it(`${environment}: parses back, verifies with the key, carries the subject, SAN and template ${CSR_TEMPLATE_NAMES[environment]}`, () => {
      const key = generateKeyPair();
      const csr = buildCsr(key, fields({ environment }));
      // The API's csr is base64 of the whole PEM text.
      const pemText = textOfBase64(csr);
      expect(pemText).toMatch(
        /^-----BEGIN CERTIFICATE REQUEST-----\n([A-Za-z0-9+/=]{1,64}\n)+-----END CERTIFICATE REQUEST-----\n$/,
      );
      const der = derOfPem("CERTIFICATE REQUEST", pemText);
      const request = AsnConvert.parse(der, CertificationRequest);

      // The signature: ECDSA-SHA256 over the DER of certificationRequestInfo, by the CSR's own key.
      expect(request.signatureAlgorithm.algorithm).toBe(OID.ecdsaWithSha256);
      expect(request.signatureAlgorithm.parameters ?? null).toBeNull();
      const info = new Uint8Array(request.certificationRequestInfoRaw!);
      const point = pointOfSpki(request.certificationRequestInfo.subjectPKInfo);
      expect(point).toEqual(pointOfSpki(AsnConvert.parse(key.publicKeySpki, SubjectPublicKeyInfo)));
      expect(verifyDer(new Uint8Array(request.signature), info, point)).toBe(true);
      expect(secp256k1.verify(new Uint8Array(request.signature), info, point, { format: "der", lowS: false })).toBe(
        true,
      );
      // …and not by another key.
      expect(
        verifyDer(new Uint8Array(request.signature), info, secp256k1.getPublicKey(generateKeyPair().privateKey, false)),
      ).toBe(false);

      // The subject, in ZATCA's order: C, OU, O, CN.
      const subject = request.certificationRequestInfo.subject.map((rdn) => [rdn[0].type, rdn[0].value.toString()]);
      expect(subject).toEqual([
        [OID.country, "SA"],
        [OID.organizationUnit, "Riyadh Branch"],
        [OID.organization, "Souq Edge Trading Co."],
        [OID.commonName, "TST-886431145-399999999900003"],
      ]);
      expect(request.certificationRequestInfo.subject[0][0].value.printableString).toBe("SA");

      const read = readCsr(csr);
      expect(read.signatureValid).toBe(true);
      expect(read.templateName).toBe(CSR_TEMPLATE_NAMES[environment]);
      expect(read.sanFields).toEqual({
        serial: "1-SouqEdge|2-Worker|3-ed22f1d8-e6a2-1118-9b58-d9a8f11e445f",
        vat_number: "399999999900003",
        invoice_type: "1100",
        location: "King Fahd Road 7070, Riyadh 12211",
        industry: "Retail",
      });
      // The SAN is one directoryName, its RDNs in ZATCA's order: SN, UID, title, registeredAddress, businessCategory.
      expect(read.san).toHaveLength(1);
      expect(read.san![0].directoryName!.map((rdn) => rdn[0].type)).toEqual([
        OID.surname,
        OID.uid,
        OID.title,
        OID.registeredAddress,
        OID.businessCategory,
      ]);
    });
  }

  it("the template name is a PrintableString in the extension request", () => {
    const built = buildCsrDocument(generateKeyPair().privateKey, fields({ environment: "production" }));
    const bytes = Array.from(built.der);
    const printable = [0x13, 18, ...Array.from("ZATCA-Code-Signing", (c) => c.charCodeAt(0))];
    const at = bytes.findIndex((_, i) => printable.every((b, j) => bytes[i + j] === b));
    expect(at).toBeGreaterThan(0);
    // Its OCTET STRING wrapper right before it.
    expect(bytes.slice(at - 2, at)).toEqual([0x04, 20]);
  });

  it("the same CSR is readable as PEM, as the API's base64 and as DER", () => {
    const built = buildCsrDocument(generateKeyPair().privateKey, fields());
    for (const form of [built.csr, built.pem, built.der]) expect(readCsr(form).signatureValid).toBe(true);
    expect(bytesOfBase64(built.csr)).toEqual(new TextEncoder().encode(built.pem));
  });

  it("a tampered CSR no longer verifies", () => {
    const built = buildCsrDocument(generateKeyPair().privateKey, fields());
    const der = built.der.slice();
    const at = der.indexOf(0x52); // an "R" of "Riyadh Branch", inside the signed part
    der[at] = 0x53;
    expect(readCsr(der).signatureValid).toBe(false);
  });

  it("fields are trimmed and checked, with every problem said", () => {
    const key = generateKeyPair().privateKey;
    expect(readCsr(buildCsr(key, fields({ common_name: "  EGS-1  " }))).subject[OID.commonName]).toBe("EGS-1");
    const problems = (input: unknown) => {
      try {
        buildCsr(key, input as CsrFieldsInput);
      } catch (error) {
        expect(error).toBeInstanceOf(CsrError);
        return (error as CsrError).issues.join("\n");
      }
      throw new Error("accepted");
    };
    expect(problems(fields({ vat_number: "123456789012345" }))).toMatch(
      /vat_number: .*15 digits, starting and ending with 3/,
    );
    expect(problems(fields({ environment: "staging" as never }))).toMatch(/environment/);
    expect(problems(fields({ organization_name: " " }))).toMatch(
      /organization_name: The organization name \(O\) is required/,
    );
    expect(problems(fields({ egs: { solution: "a|b", model: "m", serial: "s" } }))).toMatch(/egs\.solution: .*"\|"/);
    expect(problems(fields({ invoice_type: "0011" }))).toMatch(/invoice_type/);
    expect(problems(fields({ invoice_type: "11" }))).toMatch(/4 binary digits/);
    const all = problems({ environment: "production" });
    for (const field of [
      "common_name",
      "organization_name",
      "organization_unit",
      "vat_number",
      "egs",
      "location",
      "industry",
    ])
      expect(all).toContain(`${field}:`);
  });

  it("a VAT group (11th digit 1) needs the member's 10-digit TIN as OU", () => {
    const key = generateKeyPair().privateKey;
    const group = { vat_number: "399999999910003" };
    expect(() => buildCsr(key, fields({ ...group, organization_unit: "Riyadh Branch" }))).toThrow(/10-digit TIN/);
    expect(
      readCsr(buildCsr(key, fields({ ...group, organization_unit: "3999999999" }))).subject[OID.organizationUnit],
    ).toBe("3999999999");
  });

  it("an only-simplified EGS says 0100; a key that is not secp256k1's is refused", () => {
    const key = generateKeyPair().privateKey;
    expect(readCsr(buildCsr(key, fields({ invoice_type: "0100" }))).sanFields.invoice_type).toBe("0100");
    expect(() => buildCsr(new Uint8Array(32), fields())).toThrow(CsrError);
  });
});
