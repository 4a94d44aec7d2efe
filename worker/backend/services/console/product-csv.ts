import * as v from "valibot";
import {
  CSV_MAX_ROWS,
  CSV_REPORT_MAX_ERRORS,
  PRODUCT_CSV_ALIASES,
  PRODUCT_CSV_COLUMNS,
  productFields,
  productInput,
  specsToText,
  type ConsoleProduct,
  type CsvImportReport,
  type ProductCsvColumn,
  type ProductInput,
} from "../../../../contract/console-catalogue";
import type { InputMessages } from "../../../../contract/inputs";
import { arabicIndicDigits, formatMinorUnits, readCount } from "../../../../contract/numbers";
import type { Lang, StaffCaller } from "../../env";
import { BackendError } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { allConsoleProducts, catalogueFacts, productProblems, writeProducts, type NamedRecord } from "./products";
import { csvCell, csvText, CsvSyntaxError, CsvTooWide, parseCsv } from "../shared/csv";
import { msg } from "../../messages";

/**
 * The products CSV. Export: every product, both languages, one column per field of the
 * product form (PRODUCT_CSV_COLUMNS), prices in riyals, the category and brand by slug,
 * specifications as "label: value" lines, images separated by spaces. Import: each field of a row
 * goes through the product form's own schema (contract/console-catalogue.ts) and the same catalogue
 * checks as the form, all in one pass, so a row's every error is reported at once; a row whose SKU
 * exists updates that product (all but its stock, which only Inventory changes), any other creates
 * one with the row's stock. With any bad row nothing is written; without, every row is written in
 * one batch.
 */

export async function exportProductsCsv(db: D1Database): Promise<string> {
  const [products, facts] = await Promise.all([allConsoleProducts(db), catalogueFacts(db, { slugs: [], skus: [] })]);
  const slugOf = (list: NamedRecord[], id: number | null) => list.find((r) => r.id === id)?.slug ?? id ?? "";
  const cell = (p: ConsoleProduct, column: ProductCsvColumn): unknown => {
    switch (column) {
      case "price":
        return formatMinorUnits(p.price);
      case "compare_at_price":
        return p.compare_at_price === null ? "" : formatMinorUnits(p.compare_at_price);
      case "category":
        return slugOf(facts.categories, p.category_id);
      case "brand":
        return p.brand_id === null ? "" : slugOf(facts.brands, p.brand_id);
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

/**
 * A file to start from: the header row and one example product, written in the console's language
 * (Arabic names and a price in Arabic-Indic digits for an Arabic console) with a category and brand
 * of this shop by name. Headers stay the column names in either language (PRODUCT_CSV_COLUMNS).
 */
export async function productsCsvTemplate(db: D1Database, lang: Lang): Promise<string> {
  const { categories, brands } = await catalogueFacts(db, { slugs: [], skus: [] });
  const ar = lang === "ar";
  const digits = (text: string) => (ar ? arabicIndicDigits(text) : text);
  const name = (r: NamedRecord | undefined) => (r ? (ar ? r.name_ar : r.name_en) : "");
  const sample = {
    name: msg("console.productCsv.example.name"),
    description: msg("console.productCsv.example.description"),
    specs: msg("console.productCsv.example.specs"),
  };
  const example: Record<ProductCsvColumn, string> = {
    sku: "EXAMPLE-001",
    slug: "example-headphones",
    model: "X1",
    name_en: sample.name.en,
    name_ar: sample.name.ar,
    description_en: sample.description.en,
    description_ar: sample.description.ar,
    specs_en: sample.specs.en,
    specs_ar: sample.specs.ar,
    price: digits("299.50"),
    compare_at_price: digits("349.00"),
    stock: digits("20"),
    max_per_order: digits("5"),
    low_stock_threshold: digits("5"),
    category: name(categories[0]),
    brand: name(brands[0]),
    images: "",
    is_featured: "0",
    is_new: "1",
    active: "1",
    seo_title_en: "",
    seo_title_ar: "",
    seo_description_en: "",
    seo_description_ar: "",
    weight_grams: digits("250"),
    barcode: "",
  };
  return csvText([[...PRODUCT_CSV_COLUMNS], PRODUCT_CSV_COLUMNS.map((c) => example[c])]);
}

const SAY = {
  syntax: msg("console.productCsv.syntax"),
  empty: msg("console.productCsv.empty"),
  wideHeader: msg("console.productCsv.wideHeader"),
  missingColumn: msg("console.productCsv.missingColumn"),
  unknownColumn: msg("console.productCsv.unknownColumn"),
  tooMany: msg("console.productCsv.tooMany"),
  fieldCount: msg("console.productCsv.fieldCount"),
  duplicate: msg("console.productCsv.duplicate"),
  noCategory: msg("console.productCsv.noCategory"),
  noBrand: msg("console.productCsv.noBrand"),
  ambiguous: msg("console.productCsv.ambiguous"),
};

/** How a name is compared: trimmed, spaces collapsed, Latin letters in lower case. */
const nameKey = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * A category or brand cell as the id the schema checks: a number is an id as it is; otherwise the
 * one record whose slug or English or Arabic name it is. An unknown or shared name is an error on
 * the field, worded for the operator.
 */
function resolveNamed(
  lang: Lang,
  list: NamedRecord[],
  cell: string,
  kind: "category" | "brand",
): { id: string } | { error: string } {
  const number = readCount(cell, { min: 1 });
  if (number.ok) return { id: String(number.value) };
  const key = nameKey(cell);
  const bySlug = list.filter((r) => r.slug === key);
  const matches = bySlug.length ? bySlug : list.filter((r) => nameKey(r.name_en) === key || nameKey(r.name_ar) === key);
  if (matches.length === 1) return { id: String(matches[0]!.id) };
  if (matches.length === 0)
    return { error: say(lang, kind === "category" ? SAY.noCategory : SAY.noBrand, { name: cell.trim() }) };
  return { error: say(lang, SAY.ambiguous, { name: cell.trim(), slugs: matches.map((r) => r.slug).join(", ") }) };
}

/** Columns a file must have; the rest may be left out (their defaults apply). */
const REQUIRED_COLUMNS = ["sku", "slug", "name_en", "name_ar", "price", "category"] as const;

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
  const given = header.map((h) => h.trim());
  const columns = given.map((h) => PRODUCT_CSV_ALIASES[h.toLowerCase()] ?? h.toLowerCase());
  given.forEach((column, i) => {
    if (!(PRODUCT_CSV_COLUMNS as readonly string[]).includes(columns[i]!))
      report.errors.push({ row: 1, field: column, message: say(lang, SAY.unknownColumn, { column }) });
  });
  for (const column of REQUIRED_COLUMNS)
    if (!columns.includes(column))
      report.errors.push({ row: 1, field: column, message: say(lang, SAY.missingColumn, { column }) });
  if (rows.length > CSV_MAX_ROWS) return fileError(say(lang, SAY.tooMany, { n: rows.length, max: CSV_MAX_ROWS }));
  report.rows = rows.length;
  if (report.errors.length) return report;

  // Names and slugs are read against the catalogue's categories and brands, so they are loaded
  // first; the products a row might clash with are looked up once every row is read.
  const named = await catalogueFacts(db, { slugs: [], skus: [] });
  const fields = productFields(messages);
  const schema = productInput(messages);
  type RowInput = { [K in keyof ProductInput]?: ProductInput[K] };
  const checked: { row: number; input: RowInput; complete: ProductInput | null }[] = [];
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
    const add = (field: string, message: string) => report.errors.push({ row, field, message });
    // An empty cell is a field left out, so the schema's default applies, as on the form.
    const raw: Record<string, string> = {};
    columns.forEach((column, i) => {
      const value = csvCell(record[i] ?? "");
      if (value.trim() === "") return;
      if (column === "category" || column === "brand") {
        const field = `${column}_id`;
        const found = resolveNamed(lang, column === "category" ? named.categories : named.brands, value, column);
        if ("id" in found) raw[field] = found.id;
        else add(field, found.error);
      } else raw[column] = value;
    });
    const unresolved = new Set(report.errors.filter((e) => e.row === row).map((e) => e.field));
    // Every field on its own, so one bad cell does not hide the others' errors.
    const input: RowInput = {};
    let fieldsGood = unresolved.size === 0;
    for (const [field, fieldSchema] of Object.entries(fields)) {
      if (unresolved.has(field)) continue;
      const result = v.safeParse(fieldSchema as v.GenericSchema, raw[field], { abortPipeEarly: true });
      if (result.success) (input as Record<string, unknown>)[field] = result.output;
      else {
        fieldsGood = false;
        add(field, result.issues[0]?.message ?? "");
      }
    }
    let complete: ProductInput | null = null;
    if (fieldsGood) {
      // The rules between fields (a compare-at price above the price) once each field is good.
      const result = v.safeParse(schema, raw, { abortPipeEarly: true });
      if (result.success) complete = result.output;
      else {
        const flat = v.flatten(result.issues);
        for (const [field, list] of Object.entries(flat.nested ?? {}))
          for (const message of list ?? []) add(field, message);
        for (const message of flat.root ?? []) add("file", message);
      }
    }
    checked.push({ row, input, complete });
  });

  // Against the catalogue: the same checks as the form, plus a SKU or slug twice in the file, for
  // every field that could be read, whether or not the row's other fields were good.
  const facts = await catalogueFacts(db, {
    slugs: checked.flatMap((r) => (r.input.slug === undefined ? [] : [r.input.slug])),
    skus: checked.flatMap((r) => (r.input.sku === undefined ? [] : [r.input.sku])),
  });
  const seen = { sku: new Map<string, number>(), slug: new Map<string, number>() };
  const toWrite: { input: ProductInput; existing: number | null }[] = [];
  for (const { row, input: partial, complete } of checked) {
    const existing = partial.sku === undefined ? null : (facts.bySku.get(partial.sku.toUpperCase())?.id ?? null);
    // An existing product's stock column is not read: stock moves through Inventory, and a file
    // exported yesterday must not be refused because of today's sales.
    const input = existing === null ? partial : { ...partial, stock: null };
    const problems = productProblems(lang, input, existing, facts);
    for (const field of ["sku", "slug"] as const) {
      const value = field === "sku" ? input.sku?.toUpperCase() : input.slug;
      if (value === undefined) continue;
      if (seen[field].has(value)) (problems[field] ??= []).push(say(lang, SAY.duplicate));
      seen[field].set(value, row);
    }
    for (const [field, list] of Object.entries(problems))
      for (const message of list) report.errors.push({ row, field, message });
    if (complete) toWrite.push({ input: existing === null ? complete : { ...complete, stock: null }, existing });
  }
  report.created = toWrite.filter((r) => r.existing === null).length;
  report.updated = toWrite.length - report.created;
  report.errors.sort((a, b) => a.row - b.row);
  if (report.errors.length || dryRun || toWrite.length === 0) return report;
  await writeProducts(db, staff, toWrite);
  report.written = true;
  return report;
}
