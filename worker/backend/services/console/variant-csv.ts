import * as v from "valibot";
import {
  codeOf,
  CSV_MAX_ROWS,
  CSV_REPORT_MAX_ERRORS,
  productFields,
  VARIANT_CSV_COLUMNS,
  type ConsoleVariants,
  type CsvImportReport,
  type ProductVariantsInput,
} from "../../../../contract/console-catalogue";
import type { InputMessages } from "../../../../contract/inputs";
import { formatMinorUnits } from "../../../../contract/numbers";
import { say } from "../../../../contract/server/i18n";
import { bumpCatalogueVersion } from "../../cache";
import type { Lang, StaffCaller } from "../../env";
import { msg } from "../../messages";
import { bumpSearchVersion } from "../catalogue/search-kept";
import { csvCell, csvText, CsvSyntaxError, CsvTooWide, parseCsv } from "../shared/csv";
import { consoleProductVariants, variantRefusals, variantWriteStatements } from "./product-variants";
import { reindexProductDetails } from "./products";

/**
 * The variants CSV: a row per variant, its product by SKU, then its own SKU, barcode, prices,
 * stock, limit, whether it is on sale, its own pictures (paths separated by spaces; empty: the
 * product's; a file without the column leaves them as they are), and up to three options, each a name and a value written in
 * English and Arabic separated by "|" ("Colour | اللون", "Blue | أزرق | #1f3a5f" with a swatch).
 * Import merges a file into each product's variants: a row whose SKU is one of its variants edits
 * it (all but its stock, which only Inventory changes), any other adds one with the row's stock;
 * options and values are added or renamed, matched by their English name. Every row is checked
 * with the console's own rules (the product page's editor) before anything is written, and every
 * problem is reported on its row in the caller's language; with none, and not a dry run, every
 * product's change is written in one batch.
 */

type Column = (typeof VARIANT_CSV_COLUMNS)[number];

const SAY = {
  syntax: msg("console.productCsv.syntax"),
  empty: msg("console.productCsv.empty"),
  missingColumn: msg("console.productCsv.missingColumn"),
  unknownColumn: msg("console.productCsv.unknownColumn"),
  tooMany: msg("console.variantCsv.tooMany"),
  wideHeader: msg("console.variantCsv.wideHeader"),
  fieldCount: msg("console.productCsv.fieldCount"),
  noProduct: msg("console.variantCsv.noProduct"),
  bilingual: msg("console.variantCsv.bilingual"),
  pair: msg("console.variantCsv.pair"),
  sameOptions: msg("console.variantCsv.sameOptions"),
  duplicate: msg("console.productCsv.duplicate"),
};

const bilingual = (en: string, ar: string, extra?: string | null) => [en, ar, ...(extra ? [extra] : [])].join(" | ");

/** Every variant of every product, with its product's options. */
export async function exportVariantsCsv(db: D1Database): Promise<string> {
  const { results } = await db
    .prepare(
      `SELECT p.sku AS product_sku, v.sku, v.barcode, v.price, v.compare_at_price, v.stock, v.max_per_order, v.active, v.images,
         (SELECT json_group_array(json_array(name_en, name_ar, value_en, value_ar, swatch)) FROM (
            SELECT o.name_en, o.name_ar, ov.value_en, ov.value_ar, ov.swatch FROM variant_option_values vov
            JOIN product_options o ON o.id = vov.option_id JOIN product_option_values ov ON ov.id = vov.value_id
            WHERE vov.variant_id = v.id ORDER BY o.position, o.id) AS ov_rows) AS choices
       FROM product_variants v JOIN products p ON p.id = v.product_id ORDER BY p.id, v.position, v.id`,
    )
    .all<{
      product_sku: string;
      sku: string;
      barcode: string | null;
      price: number;
      compare_at_price: number | null;
      stock: number;
      max_per_order: number;
      active: number;
      images: string;
      choices: string;
    }>();
  const rows = results.map((r) => {
    const choices = JSON.parse(r.choices) as [string, string, string, string, string | null][];
    const options = [0, 1, 2].flatMap((i) => {
      const c = choices[i];
      return c ? [bilingual(c[0], c[1]), bilingual(c[2], c[3], c[4])] : ["", ""];
    });
    return [
      r.product_sku,
      r.sku,
      r.barcode ?? "",
      formatMinorUnits(r.price),
      r.compare_at_price === null ? "" : formatMinorUnits(r.compare_at_price),
      r.stock,
      r.max_per_order,
      r.active,
      (JSON.parse(r.images || "[]") as string[]).join(" "),
      ...options,
    ];
  });
  return csvText([[...VARIANT_CSV_COLUMNS], ...rows]);
}

interface RowOption {
  name_en: string;
  name_ar: string;
  value_en: string;
  value_ar: string;
  swatch: string | null;
}

interface ReadRow {
  row: number;
  productSku: string;
  fields: Omit<ProductVariantsInput["variants"][number], "options" | "id">;
  options: RowOption[];
}

/** "English | Arabic" (and, for a value, an optional "#rrggbb"), or the message that refuses it. */
function splitBilingual(cell: string): string[] {
  return cell.split("|").map((part) => part.trim());
}

/** PUT-like merge of a product's saved variants and its file rows, with which input variant came from which row. */
function mergedInput(
  before: ConsoleVariants,
  rows: ReadRow[],
): { input: ProductVariantsInput; rowOf: (number | null)[] } {
  const options = before.options.map((o) => ({ ...o, values: o.values.map((x) => ({ ...x })) }));
  const codeFor = (name: RowOption) => {
    const byName = options.find((o) => o.name_en.toLowerCase() === name.name_en.toLowerCase());
    return byName?.code ?? codeOf(name.name_en, "_");
  };
  for (const row of rows)
    row.options.forEach((o, position) => {
      const code = codeFor(o);
      let option = options.find((x) => x.code === code);
      if (!option) {
        option = { code, name_en: o.name_en, name_ar: o.name_ar, kind: o.swatch ? "swatch" : "button", values: [] };
        options.splice(Math.min(position, options.length), 0, option);
      }
      option.name_en = o.name_en;
      option.name_ar = o.name_ar;
      if (o.swatch) option.kind = "swatch";
      const valueCode =
        option.values.find((x) => x.value_en.toLowerCase() === o.value_en.toLowerCase())?.code ??
        codeOf(o.value_en, "-");
      const value = option.values.find((x) => x.code === valueCode);
      if (value) Object.assign(value, { value_en: o.value_en, value_ar: o.value_ar, swatch: o.swatch ?? value.swatch });
      else option.values.push({ code: valueCode, value_en: o.value_en, value_ar: o.value_ar, swatch: o.swatch });
    });
  const choiceOf = (row: ReadRow) =>
    Object.fromEntries(
      row.options.map((o) => {
        const code = codeFor(o);
        const option = options.find((x) => x.code === code)!;
        return [code, option.values.find((x) => x.value_en.toLowerCase() === o.value_en.toLowerCase())!.code];
      }),
    );
  const bySku = new Map(rows.map((r) => [r.fields.sku.toLowerCase(), r]));
  const variants: ProductVariantsInput["variants"] = [];
  const rowOf: (number | null)[] = [];
  for (const saved of before.variants) {
    const row = bySku.get(saved.sku.toLowerCase());
    if (row) {
      // Its stock is Inventory's: the file's is not read for a variant that exists.
      variants.push({ ...row.fields, id: saved.id, stock: null, options: choiceOf(row) });
      rowOf.push(row.row);
      bySku.delete(saved.sku.toLowerCase());
      continue;
    }
    // A saved variant without a value of every option (the product's own, before it had options)
    // is replaced by the file's, as the product page's editor replaces it.
    if (options.some((o) => !saved.options[o.code])) continue;
    variants.push({
      id: saved.id,
      sku: saved.sku,
      barcode: saved.barcode,
      price: saved.price,
      compare_at_price: saved.compare_at_price,
      stock: null,
      max_per_order: saved.max_per_order,
      active: saved.active,
      options: saved.options,
    });
    rowOf.push(null);
  }
  for (const row of bySku.values()) {
    variants.push({ ...row.fields, options: choiceOf(row) });
    rowOf.push(row.row);
  }
  return { input: { options, variants }, rowOf };
}

/**
 * Checks (and, unless `dryRun`, writes) a variants CSV. Row numbers are the spreadsheet's: the
 * header is row 1. `created` counts new variants, `updated` the edited ones.
 */
export async function importVariantsCsv(
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
  const done = () => {
    report.errors.sort((a, b) => a.row - b.row);
    report.error_count = report.errors.length;
    report.errors = report.errors.slice(0, CSV_REPORT_MAX_ERRORS);
    return report;
  };
  const add = (row: number, field: string, message: string) => report.errors.push({ row, field, message });
  let records: string[][];
  try {
    records = parseCsv(text, { maxFields: VARIANT_CSV_COLUMNS.length });
  } catch (err) {
    if (err instanceof CsvTooWide) add(err.record + 1, "file", say(lang, SAY.wideHeader, { max: err.maxFields }));
    else if (err instanceof CsvSyntaxError)
      add(1, "file", say(lang, SAY.syntax, { line: err.line, reason: err.message }));
    else throw err;
    return done();
  }
  const [header, ...rows] = records;
  if (!header) {
    add(1, "file", say(lang, SAY.empty));
    return done();
  }
  const columns = header.map((h) => h.trim().toLowerCase());
  for (const column of columns)
    if (!(VARIANT_CSV_COLUMNS as readonly string[]).includes(column))
      add(1, column, say(lang, SAY.unknownColumn, { column }));
  for (const column of ["product_sku", "sku", "price"] as const)
    if (!columns.includes(column)) add(1, column, say(lang, SAY.missingColumn, { column }));
  if (rows.length > CSV_MAX_ROWS) add(1, "file", say(lang, SAY.tooMany, { n: rows.length, max: CSV_MAX_ROWS }));
  report.rows = rows.length;
  if (report.errors.length) return done();

  const fields = productFields(messages);
  const read: ReadRow[] = [];
  rows.forEach((record, index) => {
    const row = index + 2;
    if (record.length !== columns.length) {
      add(row, "file", say(lang, SAY.fieldCount, { n: record.length, m: columns.length }));
      return;
    }
    const cell = (column: Column) => {
      const at = columns.indexOf(column);
      return at < 0 ? "" : csvCell(record[at] ?? "").trim();
    };
    let good = true;
    const parsed: Record<string, unknown> = {};
    for (const field of ["sku", "barcode", "price", "compare_at_price", "stock", "max_per_order", "active"] as const) {
      const value = cell(field);
      const result = v.safeParse(fields[field] as v.GenericSchema, value === "" ? undefined : value, {
        abortPipeEarly: true,
      });
      if (result.success) parsed[field] = result.output;
      else {
        good = false;
        add(row, field, result.issues[0]?.message ?? "");
      }
    }
    // Pictures only when the file has the column: an older file's rows keep theirs.
    if (columns.includes("images")) {
      const result = v.safeParse(fields.images, cell("images") || undefined, { abortPipeEarly: true });
      if (result.success) parsed.images = result.output;
      else {
        good = false;
        add(row, "images", result.issues[0]?.message ?? "");
      }
    }
    const options: RowOption[] = [];
    for (const n of [1, 2, 3] as const) {
      const name = cell(`option${n}`);
      const value = cell(`value${n}`);
      if (!name && !value) continue;
      if (!name || !value) {
        good = false;
        add(row, name ? `value${n}` : `option${n}`, say(lang, SAY.pair, { n }));
        continue;
      }
      const [nameEn = "", nameAr = ""] = splitBilingual(name);
      const [valueEn = "", valueAr = "", swatch = ""] = splitBilingual(value);
      if (!nameEn || !nameAr || !valueEn || !valueAr || !codeOf(nameEn, "_") || !codeOf(valueEn, "-")) {
        good = false;
        add(row, !nameEn || !nameAr || !codeOf(nameEn, "_") ? `option${n}` : `value${n}`, say(lang, SAY.bilingual));
        continue;
      }
      options.push({ name_en: nameEn, name_ar: nameAr, value_en: valueEn, value_ar: valueAr, swatch: swatch || null });
    }
    const productSku = cell("product_sku");
    if (!productSku) {
      good = false;
      add(row, "product_sku", messages.required("product_ids"));
    }
    if (good)
      read.push({
        row,
        productSku,
        fields: parsed as ReadRow["fields"],
        options,
      });
  });

  // A SKU names one variant: twice in the file is refused on its second row.
  const seen = new Set<string>();
  for (const r of read) {
    const key = r.fields.sku.toLowerCase();
    if (seen.has(key)) add(r.row, "sku", say(lang, SAY.duplicate));
    seen.add(key);
  }
  // By product: its saved variants, merged with its rows, checked by the console's own rules.
  const skus = [...new Set(read.map((r) => r.productSku.toUpperCase()))];
  const { results: products } = await db
    .prepare("SELECT id, upper(sku) AS sku FROM products WHERE upper(sku) IN (SELECT value FROM json_each(?1))")
    .bind(JSON.stringify(skus))
    .all<{ id: number; sku: string }>();
  const idOf = new Map(products.map((p) => [p.sku, p.id]));
  const statements: D1PreparedStatement[] = [];
  const written: number[] = [];
  for (const sku of skus) {
    const group = read.filter((r) => r.productSku.toUpperCase() === sku);
    const id = idOf.get(sku);
    if (id === undefined) {
      for (const r of group) add(r.row, "product_sku", say(lang, SAY.noProduct, { sku: r.productSku }));
      continue;
    }
    // Every row of a product names the same options, in the same order.
    const shape = (r: ReadRow) => r.options.map((o) => o.name_en.toLowerCase()).join("|");
    const odd = group.filter((r) => shape(r) !== shape(group[0]!));
    if (odd.length) {
      for (const r of odd) add(r.row, "option1", say(lang, SAY.sameOptions, { row: group[0]!.row }));
      continue;
    }
    const before = await consoleProductVariants(db, id);
    const { input, rowOf } = mergedInput(before, group);
    const refused = await variantRefusals(db, lang, id, input, before.variants);
    for (const [field, list] of Object.entries(refused)) {
      const at = /^variants\.(\d+)\.(.+)$/.exec(field);
      const row = (at ? rowOf[Number(at[1])] : null) ?? group[0]!.row;
      for (const message of list) add(row, at ? at[2]! : field, message);
    }
    if (Object.keys(refused).length) continue;
    const known = new Set(before.variants.map((x) => x.sku.toLowerCase()));
    report.updated += group.filter((r) => known.has(r.fields.sku.toLowerCase())).length;
    report.created += group.filter((r) => !known.has(r.fields.sku.toLowerCase())).length;
    statements.push(...variantWriteStatements(db, staff, id, input, before));
    written.push(id);
  }
  if (report.errors.length || dryRun || statements.length === 0) return done();
  await db.batch([...statements, bumpCatalogueVersion(db), bumpSearchVersion(db)]);
  for (const id of written) await reindexProductDetails(db, id);
  report.written = true;
  return done();
}
