import type { Lang } from "../../env";
import type { ProductOption, ProductVariant } from "../../../../contract/catalogue";
import { parseJson } from "./summary";
import { bumpOnFlip } from "./availability";
import { stockAlertStatements } from "../stock-alerts/trigger";

/**
 * Variants (migrations/0040_variants.sql): the options a product's variants differ by, each
 * variant's values, and the words that name a variant ("Desert Titanium · 512 GB") on the product
 * page, in the cart and on the order lines and documents made from them.
 */

/** Between the values of a variant's title. */
export const TITLE_SEPARATOR = " · ";

/**
 * SQL for the variant a cart line or a sale means: the one given (`variant` parameter), or, when
 * none is given, the product's (`product` parameter) only available variant. A product of several
 * without a choice matches none.
 */
export const chosenVariantSql = (product: string, variant: string) =>
  `COALESCE(${variant}, (SELECT MIN(id) FROM product_variants WHERE product_id = ${product} AND active = 1 HAVING COUNT(*) = 1))`;

/**
 * SQL for a variant's title in one language (NULL without options), for reads that name variants
 * in bulk (the console's stock and ledger lists).
 */
export function variantTitleSql(variant: string, lang: Lang, separator = ", "): string {
  const l = lang === "ar" ? "ar" : "en";
  return `(SELECT group_concat(t, '${separator}') FROM (
    SELECT ov.value_${l} AS t FROM variant_option_values vov JOIN product_options o ON o.id = vov.option_id
    JOIN product_option_values ov ON ov.id = vov.value_id WHERE vov.variant_id = ${variant} ORDER BY o.position, o.id))`;
}

/** SQL for a product's name in one language with its variant's values: `p` the product, `variant` the variant id. */
export const variantNameSql = (variant: string, lang: Lang) =>
  `p.name_${lang === "ar" ? "ar" : "en"} || COALESCE('${lang === "ar" ? "، " : ", "}' || ${variantTitleSql(variant, lang, lang === "ar" ? "، " : ", ")}, '')`;

/**
 * A variant's units back on the shelf with their ledger line (applied = changes(): a variant gone
 * aborts the batch) and, when it had sold out, the catalogue version moved and its back-in-stock
 * alerts written: a return received, a refund restocked.
 */
export function restockVariantStatements(
  db: D1Database,
  line: { product_id: number; variant_id: number; quantity: number },
  note: string,
  staffId: number | null,
): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `UPDATE product_variants SET stock = stock + ?1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?2`,
      )
      .bind(line.quantity, line.variant_id),
    db
      .prepare(
        `INSERT INTO inventory_adjustments (product_id, variant_id, delta, reason, note, stock_after, staff_user_id, applied)
         VALUES (?1, ?2, ?3, 'returned', ?4, (SELECT stock FROM product_variants WHERE id = ?2), ?5, changes())`,
      )
      .bind(line.product_id, line.variant_id, line.quantity, note, staffId),
    bumpOnFlip(db, line.variant_id, line.quantity),
    ...stockAlertStatements(db, [line.variant_id]),
  ];
}

interface ValueRow {
  variant_id: number;
  option_code: string;
  value_code: string;
  value_en: string;
  value_ar: string;
}

/** Titles in both languages and values by option code, by variant id (empty for a variant without options). */
export async function variantTitles(
  db: D1Database,
  variantIds: readonly number[],
): Promise<Map<number, { en: string; ar: string; options: Record<string, string> }>> {
  const titles = new Map<number, { en: string; ar: string; options: Record<string, string> }>(
    variantIds.map((id) => [id, { en: "", ar: "", options: {} }]),
  );
  if (!variantIds.length) return titles;
  const { results } = await db
    .prepare(
      `SELECT vov.variant_id, o.code AS option_code, ov.code AS value_code, ov.value_en, ov.value_ar
       FROM variant_option_values vov JOIN product_options o ON o.id = vov.option_id
       JOIN product_option_values ov ON ov.id = vov.value_id
       WHERE vov.variant_id IN (SELECT value FROM json_each(?1)) ORDER BY vov.variant_id, o.position, o.id`,
    )
    .bind(JSON.stringify([...new Set(variantIds)]))
    .all<ValueRow>();
  for (const row of results) {
    const title = titles.get(row.variant_id);
    if (!title) continue;
    title.en = title.en ? `${title.en}${TITLE_SEPARATOR}${row.value_en}` : row.value_en;
    title.ar = title.ar ? `${title.ar}${TITLE_SEPARATOR}${row.value_ar}` : row.value_ar;
    title.options[row.option_code] = row.value_code;
  }
  return titles;
}

/** A line's name with its variant's title: what an order line and its documents call it. */
export function variantName(name: string, title: string, comma = ", "): string {
  return title ? `${name}${comma}${title.split(TITLE_SEPARATOR).join(comma)}` : name;
}

/**
 * What a sale's line adds to the product's names and keeps apart: [", Desert Titanium, 512 GB" in
 * English, the same in Arabic, the English title, the Arabic title]; empty and null without options.
 */
export function variantNameParts(
  title: { en: string; ar: string } | undefined,
): [string, string, string | null, string | null] {
  if (!title?.en) return ["", "", null, null];
  return [variantName("", title.en), variantName("", title.ar, "، "), title.en, title.ar];
}

interface OptionRow {
  option_id: number;
  option_code: string;
  option_name: string;
  kind: "swatch" | "button";
  value_id: number;
  value_code: string;
  value_name: string;
  swatch: string | null;
}

interface VariantRow {
  id: number;
  sku: string;
  barcode: string | null;
  price: number;
  compare_at_price: number | null;
  stock: number;
  max_per_order: number;
  images: string;
}

/** The statements `toVariants` reads: the product's options with their values, its variants, their values. */
export function variantStatements(db: D1Database, lang: Lang, slug: string): D1PreparedStatement[] {
  const l = lang === "ar" ? "ar" : "en";
  return [
    db
      .prepare(
        `SELECT o.id AS option_id, o.code AS option_code, o.name_${l} AS option_name, o.kind,
                ov.id AS value_id, ov.code AS value_code, ov.value_${l} AS value_name, ov.swatch
         FROM product_options o JOIN product_option_values ov ON ov.option_id = o.id
         WHERE o.product_id = (SELECT id FROM products WHERE slug = ?1)
         ORDER BY o.position, o.id, ov.position, ov.id`,
      )
      .bind(slug),
    db
      .prepare(
        `SELECT v.id, v.sku, v.barcode, v.price, v.compare_at_price, v.stock, v.max_per_order, v.images
         FROM product_variants v WHERE v.product_id = (SELECT id FROM products WHERE slug = ?1) AND v.active = 1
         ORDER BY v.position, v.id`,
      )
      .bind(slug),
    db
      .prepare(
        `SELECT vov.variant_id, vov.option_id, vov.value_id FROM variant_option_values vov
         JOIN product_variants v ON v.id = vov.variant_id
         WHERE v.product_id = (SELECT id FROM products WHERE slug = ?1) AND v.active = 1`,
      )
      .bind(slug),
  ];
}

/** The options (only values some variant has) and variants of `variantStatements`' answers. */
export function toVariants(
  optionRows: OptionRow[],
  variantRows: VariantRow[],
  valueRows: { variant_id: number; option_id: number; value_id: number }[],
): { options: ProductOption[]; variants: ProductVariant[] } {
  const used = new Set(valueRows.map((r) => r.value_id));
  const options: ProductOption[] = [];
  const optionCode = new Map<number, string>();
  const value = new Map<number, { code: string; name: string }>();
  const optionOrder = new Map<number, number>();
  for (const row of optionRows) {
    let option = options.find((o) => o.code === row.option_code);
    if (!option) {
      option = { code: row.option_code, name: row.option_name, kind: row.kind, values: [] };
      options.push(option);
      optionCode.set(row.option_id, row.option_code);
      optionOrder.set(row.option_id, optionOrder.size);
    }
    value.set(row.value_id, { code: row.value_code, name: row.value_name });
    if (used.has(row.value_id)) option.values.push({ code: row.value_code, name: row.value_name, swatch: row.swatch });
  }
  const chosen = new Map<number, { option: number; value: number }[]>();
  for (const row of valueRows) {
    const list = chosen.get(row.variant_id) ?? [];
    list.push({ option: row.option_id, value: row.value_id });
    chosen.set(row.variant_id, list);
  }
  const variants = variantRows.map((row): ProductVariant => {
    const values = (chosen.get(row.id) ?? []).sort(
      (a, b) => (optionOrder.get(a.option) ?? 0) - (optionOrder.get(b.option) ?? 0),
    );
    const picked: Record<string, string> = {};
    for (const v of values) {
      const code = optionCode.get(v.option);
      const val = value.get(v.value);
      if (code && val) picked[code] = val.code;
    }
    return {
      id: row.id,
      sku: row.sku,
      barcode: row.barcode,
      price: row.price,
      compare_at_price: row.compare_at_price,
      stock: row.stock,
      in_stock: row.stock > 0,
      max_per_order: row.max_per_order,
      images: parseJson<string[]>(row.images, []).filter((i) => typeof i === "string"),
      options: picked,
      title: values
        .map((v) => value.get(v.value)?.name)
        .filter(Boolean)
        .join(TITLE_SEPARATOR),
    };
  });
  return { options: options.filter((o) => o.values.length), variants };
}
