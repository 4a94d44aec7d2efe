import * as v from "valibot";
import {
  CSV_MAX_ROWS,
  CSV_REPORT_MAX_ERRORS,
  PRODUCT_CSV_COLUMNS,
  productInput,
  specsToText,
  type ConsoleProduct,
  type CsvImportReport,
  type ProductInput,
} from "../../../contract/console-catalogue";
import type { InputMessages } from "../../../contract/inputs";
import type { Lang, StaffCaller } from "../env";
import { BackendError } from "../http";
import { say } from "../../lib/i18n";
import { allConsoleProducts, catalogueFacts, productProblems, writeProducts } from "./console-catalogue";
import { csvCell, csvText, CsvSyntaxError, CsvTooWide, parseCsv } from "./csv";

/**
 * The products CSV (issue 20). Export: every product, both languages, one column per field of the
 * product form (PRODUCT_CSV_COLUMNS), specifications as "label: value" lines, images separated by
 * spaces. Import: each row goes through the product form's own schema (contract/console-catalogue.ts)
 * and the same catalogue checks as the form; a row whose SKU exists updates that product (all but
 * its stock, which only Inventory changes), any other creates one with the row's stock. With any bad row nothing is written; without, every row is written in one batch.
 */

export async function exportProductsCsv(db: D1Database): Promise<string> {
  const products = await allConsoleProducts(db);
  const cell = (p: ConsoleProduct, column: (typeof PRODUCT_CSV_COLUMNS)[number]): unknown => {
    switch (column) {
      case "specs_en":
      case "specs_ar":
        return specsToText(p[column]);
      case "images":
        return p.images.join(" ");
      case "is_featured":
      case "is_new":
      case "active":
        return p[column] ? 1 : 0;
      default:
        return p[column];
    }
  };
  return csvText([[...PRODUCT_CSV_COLUMNS], ...products.map((p) => PRODUCT_CSV_COLUMNS.map((c) => cell(p, c)))]);
}

const SAY = {
  syntax: {
    en: "The file is not valid CSV (line {line}: {reason}).",
    ar: "الملف ليس بصيغة CSV صالحة (السطر {line}: {reason}).",
  },
  empty: { en: "The file has no header row.", ar: "لا يحتوي الملف على صف العناوين." },
  wideHeader: {
    en: "The header row has more than {max} columns; a products file has at most {max}.",
    ar: "يحتوي صف العناوين على أكثر من {max} عمودًا؛ ملف المنتجات فيه {max} عمودًا كحد أقصى.",
  },
  missingColumn: { en: "The column {column} is missing.", ar: "العمود {column} غير موجود." },
  unknownColumn: { en: "Unknown column {column}.", ar: "عمود غير معروف: {column}." },
  tooMany: {
    en: "The file has {n} products; import at most {max} at a time.",
    ar: "يحتوي الملف على {n} منتج؛ استورد {max} منتج كحد أقصى في كل مرة.",
  },
  fieldCount: {
    en: "This row has {n} fields; the header has {m}.",
    ar: "يحتوي هذا الصف على {n} حقول بينما يحتوي صف العناوين على {m}.",
  },
  duplicate: { en: "Another row of the file uses the same value.", ar: "يستخدم صف آخر في الملف القيمة نفسها." },
};

/** Columns a file must have; the rest may be left out (their defaults apply). */
const REQUIRED_COLUMNS = ["sku", "slug", "name_en", "name_ar", "price", "category_id"] as const;

/**
 * Checks (and, unless `dryRun`, writes) a products CSV. Row numbers are the spreadsheet's: the
 * header is row 1. A problem with the file as a whole is reported on row 1.
 */
export async function importProductsCsv(
  db: D1Database,
  lang: Lang,
  messages: InputMessages,
  staff: Pick<StaffCaller, "user_id" | "email">,
  text: string,
  dryRun: boolean,
): Promise<CsvImportReport> {
  const report = await checkAndImport(db, lang, messages, staff, text, dryRun);
  // A bad file of the largest size still answers a page of errors, not one line per bad field.
  report.error_count = report.errors.length;
  report.errors = report.errors.slice(0, CSV_REPORT_MAX_ERRORS);
  return report;
}

async function checkAndImport(
  db: D1Database,
  lang: Lang,
  messages: InputMessages,
  staff: Pick<StaffCaller, "user_id" | "email">,
  text: string,
  dryRun: boolean,
): Promise<CsvImportReport> {
  const report: CsvImportReport = {
    dry_run: dryRun,
    rows: 0,
    created: 0,
    updated: 0,
    errors: [],
    error_count: 0,
    written: false,
  };
  const fileError = (message: string) => {
    report.errors.push({ row: 1, field: "file", message });
    return report;
  };
  let records: string[][];
  try {
    // No record can be wider than every known column: a wider header is refused before it is read
    // further (one error per unknown column of a 2 MB header was a 50 MB answer).
    records = parseCsv(text, { maxFields: PRODUCT_CSV_COLUMNS.length });
  } catch (err) {
    if (err instanceof CsvTooWide && err.record === 0) {
      const message = say(lang, SAY.wideHeader, { max: err.maxFields });
      throw new BackendError(422, message, { file: [message] });
    }
    // A wider data row, like any other unreadable line, is named with its line.
    if (err instanceof CsvSyntaxError) return fileError(say(lang, SAY.syntax, { line: err.line, reason: err.message }));
    throw err;
  }
  const [header, ...rows] = records;
  if (!header) return fileError(say(lang, SAY.empty));
  const columns = header.map((h) => h.trim());
  for (const column of columns)
    if (!(PRODUCT_CSV_COLUMNS as readonly string[]).includes(column))
      report.errors.push({ row: 1, field: column, message: say(lang, SAY.unknownColumn, { column }) });
  for (const column of REQUIRED_COLUMNS)
    if (!columns.includes(column))
      report.errors.push({ row: 1, field: column, message: say(lang, SAY.missingColumn, { column }) });
  if (rows.length > CSV_MAX_ROWS) return fileError(say(lang, SAY.tooMany, { n: rows.length, max: CSV_MAX_ROWS }));
  report.rows = rows.length;
  if (report.errors.length) return report;

  const schema = productInput(messages);
  const valid: { row: number; input: ProductInput }[] = [];
  rows.forEach((record, index) => {
    const row = index + 2;
    if (record.length !== columns.length) {
      report.errors.push({
        row,
        field: "file",
        message: say(lang, SAY.fieldCount, { n: record.length, m: columns.length }),
      });
      return;
    }
    // An empty cell is a field left out, so the schema's default applies, as on the form.
    const raw = Object.fromEntries(columns.map((c, i) => [c, csvCell(record[i])]).filter(([, value]) => value !== ""));
    const result = v.safeParse(schema, raw, { abortPipeEarly: true });
    if (!result.success) {
      const flat = v.flatten(result.issues);
      for (const [field, list] of Object.entries(flat.nested ?? {}))
        for (const message of list ?? []) report.errors.push({ row, field, message });
      for (const message of flat.root ?? []) report.errors.push({ row, field: "file", message });
      return;
    }
    valid.push({ row, input: result.output });
  });

  // Against the catalogue: the same checks as the form, plus a SKU or slug twice in the file.
  const facts = await catalogueFacts(db, {
    slugs: valid.map((r) => r.input.slug),
    skus: valid.map((r) => r.input.sku),
  });
  const seen = { sku: new Map<string, number>(), slug: new Map<string, number>() };
  const toWrite: { input: ProductInput; existing: number | null }[] = [];
  for (const checked of valid) {
    const { row } = checked;
    const existing = facts.bySku.get(checked.input.sku.toUpperCase())?.id ?? null;
    // An existing product's stock column is not read: stock moves through Inventory, and a file
    // exported yesterday must not be refused because of today's sales.
    const input = existing === null ? checked.input : { ...checked.input, stock: null };
    const problems = productProblems(lang, input, existing, facts);
    for (const field of ["sku", "slug"] as const) {
      const value = field === "sku" ? input.sku.toUpperCase() : input.slug;
      if (seen[field].has(value)) (problems[field] ??= []).push(say(lang, SAY.duplicate));
      seen[field].set(value, row);
    }
    for (const [field, list] of Object.entries(problems))
      for (const message of list) report.errors.push({ row, field, message });
    toWrite.push({ input, existing });
  }
  report.created = toWrite.filter((r) => r.existing === null).length;
  report.updated = toWrite.length - report.created;
  report.errors.sort((a, b) => a.row - b.row);
  if (report.errors.length || dryRun || toWrite.length === 0) return report;
  await writeProducts(db, staff, toWrite);
  report.written = true;
  return report;
}
