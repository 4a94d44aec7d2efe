import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validateUbl } from "../support/ubl-schema.ts";

const sample = (name: string) =>
  readFileSync(new URL(`../fixtures/zatca/samples/${name}.xml`, import.meta.url), "utf8");

// ZATCA's `_Error` samples break business rules, not the schema: they are valid UBL too.
const SAMPLES = [
  "Simplified_Invoice",
  "Simplified_Invoice_Error",
  "Simplified_Credit_Note",
  "Simplified_Debit_Note",
  "Standard_Invoice",
  "Standard_Invoice_Error",
  "Standard_Credit_Note",
  "Standard_Debit_Note",
];

describe("the UBL 2.1 Invoice schema", () => {
  for (const name of SAMPLES) {
    it(`accepts ZATCA's ${name} sample`, async () => {
      expect(await validateUbl(sample(name), "Invoice")).toEqual({ valid: true, errors: [] });
    });
  }

  it("rejects an element out of order, naming it", async () => {
    // UBL fixes the order of an Invoice's children: IssueDate comes before InvoiceTypeCode.
    const xml = sample("Standard_Invoice").replace(
      /(<cbc:IssueDate>[^<]*<\/cbc:IssueDate>)(\s*<cbc:IssueTime>[^<]*<\/cbc:IssueTime>)(\s*<cbc:InvoiceTypeCode[^>]*>[^<]*<\/cbc:InvoiceTypeCode>)/,
      "$3$2$1",
    );
    const result = await validateUbl(xml, "Invoice");
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toMatch(/IssueDate/);
  });

  it("rejects an unknown element, naming it", async () => {
    const xml = sample("Simplified_Invoice").replace(
      "<cbc:ProfileID>",
      "<cbc:ShopNickname>Souq Edge</cbc:ShopNickname><cbc:ProfileID>",
    );
    const result = await validateUbl(xml, "Invoice");
    expect(result.valid).toBe(false);
    expect(result.errors.join("\n")).toMatch(/ShopNickname/);
  });

  it("rejects a document of another kind", async () => {
    const xml = '<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"/>';
    expect((await validateUbl(xml, "Invoice")).valid).toBe(false);
  });
});
