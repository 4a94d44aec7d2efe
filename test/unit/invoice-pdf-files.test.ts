import { mkdirSync, writeFileSync } from "node:fs";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { taxDocumentPdf } from "../../worker/backend/services/einvoicing/invoice-pdf";
import { CASES, qrOf, xmlOf } from "../support/tax-documents";

// The tax documents' PDF copies written to test-results/ for a person to open (the Workers
// runtime, where test/integration/invoice-pdf.test.ts reads them back, has no file system): one
// file per kind and language. The same code renders them in Node as in a worker.

describe("the tax documents' PDF copies, as files", () => {
  for (const c of CASES)
    for (const lang of ["en", "ar"] as const)
      it(`writes the ${c.name} in ${lang}`, async () => {
        const bytes = await taxDocumentPdf({
          document: c.document,
          xml: xmlOf(c.document),
          xmlFileName: `${c.document.number}.xml`,
          qr: qrOf(c.document),
          lang,
        });
        expect((await PDFDocument.load(bytes)).getPageCount()).toBeGreaterThan(0);
        mkdirSync("test-results/invoice-pdf", { recursive: true });
        writeFileSync(`test-results/invoice-pdf/${c.name}-${lang}.pdf`, bytes);
      });
});
