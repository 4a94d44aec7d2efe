import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { validateXML, type XMLFileInfo } from "xmllint-wasm";

/**
 * The OASIS UBL 2.1 schemas as ZATCA's SDK ships them (test/fixtures/ubl-2.1/README.md), checked
 * by libxml2 compiled to WebAssembly: offline, and the same engine as the `xmllint` many
 * integrators run against ZATCA's samples.
 */
const ROOT = fileURLToPath(new URL("../fixtures/ubl-2.1/xsd", import.meta.url));
const MAIN: Record<"Invoice", string> = { Invoice: "maindoc/UBL-Invoice-2.1.xsd" };

let schemaFiles: Promise<XMLFileInfo[]> | undefined;

/** Every XSD under the fixture folder, named by its path there so the relative imports resolve. */
async function loadSchemaFiles(): Promise<XMLFileInfo[]> {
  const names = (await readdir(ROOT, { recursive: true })).filter((name) => name.endsWith(".xsd")).sort();
  return Promise.all(
    names.map(async (name) => ({
      fileName: relative(ROOT, join(ROOT, name)).split("\\").join("/"),
      contents: await readFile(join(ROOT, name), "utf8"),
    })),
  );
}

/**
 * Validates a document against the UBL 2.1 schema of its kind. ZATCA's credit and debit notes are
 * `Invoice` documents too (told apart by InvoiceTypeCode), so only that schema is offered.
 */
export async function validateUbl(xml: string, kind: "Invoice"): Promise<{ valid: boolean; errors: string[] }> {
  schemaFiles ??= loadSchemaFiles();
  const files = await schemaFiles;
  const main = files.find((file) => file.fileName === MAIN[kind]);
  if (!main) throw new Error(`the ${kind} schema is missing from test/fixtures/ubl-2.1`);
  const result = await validateXML({
    xml: { fileName: "document.xml", contents: xml },
    schema: main,
    preload: files.filter((file) => file !== main),
  });
  return { valid: result.valid, errors: result.errors.map((error) => error.rawMessage) };
}
