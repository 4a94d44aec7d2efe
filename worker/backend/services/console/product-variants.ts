import { stockAlertStatements } from "../stock-alerts/trigger";
import type {
  ConsoleVariant,
  ConsoleVariantOption,
  ConsoleVariants,
  ProductVariantsInput,
} from "../../../../contract/console-catalogue";
import { say } from "../../../../contract/server/i18n";
import { INVALID_INPUT } from "../../../../contract/server/input-messages";
import { bumpCatalogueVersion } from "../../cache";
import type { Lang, StaffCaller } from "../../env";
import { BackendError, notFound } from "../../http";
import { msg } from "../../messages";
import { bumpSearchVersion } from "../catalogue/search-kept";
import { auditStatement } from "./audit-log";
import { variantAttributeSql } from "../catalogue/variant-attributes";
import { reindexProductDetails } from "./products";
import { NOW } from "./writes";

/**
 * A product's options and variants in the console (migrations/0040_variants.sql). An edit names
 * every option and every variant to sell: all is checked before anything is written, then written
 * in one batch (options rebuilt, variants updated, added and removed, their values, opening stock
 * on the ledger, the audit line, the catalogue version). The product's price and stock follow its
 * variants by the migration's triggers.
 */

interface OptionRow {
  option_id: number;
  code: string;
  name_en: string;
  name_ar: string;
  kind: "swatch" | "button";
  value_code: string | null;
  value_en: string | null;
  value_ar: string | null;
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
  active: number;
  ordered: number;
  choices: string;
  images: string;
}

/** GET /admin/products/:id/variants: every option with its values, every variant (stopped ones too). */
export async function consoleProductVariants(db: D1Database, productId: number): Promise<ConsoleVariants> {
  const [product, options, variants] = await db.batch([
    db.prepare("SELECT id FROM products WHERE id = ?").bind(productId),
    db
      .prepare(
        `SELECT o.id AS option_id, o.code, o.name_en, o.name_ar, o.kind, ov.code AS value_code, ov.value_en, ov.value_ar, ov.swatch
         FROM product_options o LEFT JOIN product_option_values ov ON ov.option_id = o.id
         WHERE o.product_id = ? ORDER BY o.position, o.id, ov.position, ov.id`,
      )
      .bind(productId),
    db
      .prepare(
        `SELECT v.id, v.sku, v.barcode, v.price, v.compare_at_price, v.stock, v.max_per_order, v.active, v.images,
           EXISTS (SELECT 1 FROM order_items oi WHERE oi.variant_id = v.id) AS ordered,
           (SELECT json_group_object(o.code, ov.code) FROM variant_option_values vov
              JOIN product_options o ON o.id = vov.option_id JOIN product_option_values ov ON ov.id = vov.value_id
              WHERE vov.variant_id = v.id) AS choices
         FROM product_variants v WHERE v.product_id = ? ORDER BY v.position, v.id`,
      )
      .bind(productId),
  ]);
  if (product.results.length === 0) throw notFound();
  const byOption = new Map<number, ConsoleVariantOption>();
  for (const r of options.results as OptionRow[]) {
    let option = byOption.get(r.option_id);
    if (!option) {
      option = { code: r.code, name_en: r.name_en, name_ar: r.name_ar, kind: r.kind, values: [] };
      byOption.set(r.option_id, option);
    }
    if (r.value_code !== null)
      option.values.push({
        code: r.value_code,
        value_en: r.value_en ?? "",
        value_ar: r.value_ar ?? "",
        swatch: r.swatch,
      });
  }
  return {
    options: [...byOption.values()],
    variants: (variants.results as VariantRow[]).map((r): ConsoleVariant => ({
      id: r.id,
      sku: r.sku,
      barcode: r.barcode,
      price: r.price,
      compare_at_price: r.compare_at_price,
      stock: r.stock,
      max_per_order: r.max_per_order,
      active: r.active === 1,
      options: JSON.parse(r.choices ?? "{}") as Record<string, string>,
      images: JSON.parse(r.images || "[]") as string[],
      ordered: r.ordered === 1,
    })),
  };
}

const MESSAGES = {
  everyOption: msg("console.variants.everyOption"),
  sameValues: msg("console.variants.sameValues"),
  oneWithoutOptions: msg("console.variants.oneWithoutOptions"),
  skuTwice: msg("console.variants.skuTwice"),
  skuTaken: msg("console.variants.skuTaken"),
  notThisProduct: msg("console.variants.notThisProduct"),
  noneSold: msg("console.variants.noneSold"),
};

/** The refusals of an edit, by field (`variants.<i>.<field>`), before anything is written. */
export async function variantRefusals(
  db: D1Database,
  lang: Lang,
  productId: number,
  input: ProductVariantsInput,
  existing: ConsoleVariant[],
): Promise<Record<string, string[]>> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, text: string) => (errors[field] ??= []).push(text);
  const names = input.options.map((o) => (lang === "ar" ? o.name_ar : o.name_en)).join(lang === "ar" ? "، " : ", ");
  const seen = new Map<string, number>();
  const skus = new Map<string, number>();
  const ids = new Set(existing.map((v) => v.id));
  if (input.options.length === 0 && input.variants.length > 1) add("variants", say(lang, MESSAGES.oneWithoutOptions));
  input.variants.forEach((variant, i) => {
    const codes = Object.keys(variant.options);
    const complete =
      codes.length === input.options.length &&
      input.options.every((o) => o.values.some((value) => value.code === variant.options[o.code]));
    if (!complete) add(`variants.${i}.options`, say(lang, MESSAGES.everyOption, { names }));
    const key = input.options.map((o) => variant.options[o.code]).join("\u0000");
    if (complete && input.options.length > 0) {
      if (seen.has(key)) add(`variants.${i}.options`, say(lang, MESSAGES.sameValues, { n: (seen.get(key) ?? 0) + 1 }));
      else seen.set(key, i);
    }
    const sku = variant.sku.toLowerCase();
    if (skus.has(sku)) add(`variants.${i}.sku`, say(lang, MESSAGES.skuTwice, { n: (skus.get(sku) ?? 0) + 1 }));
    else skus.set(sku, i);
    if (variant.id !== undefined && !ids.has(variant.id)) add(`variants.${i}.id`, say(lang, MESSAGES.notThisProduct));
  });
  if (!input.variants.some((v) => v.active)) add("variants", say(lang, MESSAGES.noneSold));
  // A SKU names one thing in the whole shop: another product, or another product's variant.
  const { results: taken } = await db
    .prepare(
      `SELECT lower(sku) AS sku FROM product_variants WHERE product_id <> ?1 AND lower(sku) IN (SELECT value FROM json_each(?2))
       UNION SELECT lower(sku) FROM products WHERE id <> ?1 AND lower(sku) IN (SELECT value FROM json_each(?2))`,
    )
    .bind(productId, JSON.stringify([...skus.keys()]))
    .all<{ sku: string }>();
  for (const { sku } of taken) add(`variants.${skus.get(sku)}.sku`, say(lang, MESSAGES.skuTaken));
  return errors;
}

/** PUT /admin/products/:id/variants. */
export async function setProductVariants(
  db: D1Database,
  lang: Lang,
  staff: Pick<StaffCaller, "user_id" | "email">,
  productId: number,
  input: ProductVariantsInput,
): Promise<ConsoleVariants> {
  const before = await consoleProductVariants(db, productId);
  const errors = await variantRefusals(db, lang, productId, input, before.variants);
  if (Object.keys(errors).length > 0) throw new BackendError(422, say(lang, INVALID_INPUT), errors);
  await db.batch([
    ...variantWriteStatements(db, staff, productId, input, before),
    bumpCatalogueVersion(db),
    bumpSearchVersion(db),
  ]);
  // The options' values are words of its details index row: "iphone 16 pro blue" finds it.
  await reindexProductDetails(db, productId);
  return consoleProductVariants(db, productId);
}

/**
 * The statements of a checked edit (variantRefusals found nothing), with its audit line: options
 * rebuilt, variants updated, added and removed, their values, new variants' opening stock, and the
 * typed values the variants give (catalogue/variant-attributes.ts).
 */
export function variantWriteStatements(
  db: D1Database,
  staff: Pick<StaffCaller, "user_id" | "email">,
  productId: number,
  input: ProductVariantsInput,
  before: ConsoleVariants,
): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [
    // Options and values are rebuilt; the variants' values are written again below.
    db.prepare("DELETE FROM product_options WHERE product_id = ?").bind(productId),
  ];
  input.options.forEach((option, position) => {
    statements.push(
      db
        .prepare(
          "INSERT INTO product_options (product_id, code, name_en, name_ar, kind, position) VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(productId, option.code, option.name_en, option.name_ar, option.kind, position),
      ...option.values.map((value, at) =>
        db
          .prepare(
            `INSERT INTO product_option_values (option_id, code, value_en, value_ar, swatch, position)
             VALUES ((SELECT id FROM product_options WHERE product_id = ? AND code = ?), ?, ?, ?, ?, ?)`,
          )
          .bind(productId, option.code, value.code, value.value_en, value.value_ar, value.swatch, at),
      ),
    );
  });
  const kept = new Set(input.variants.flatMap((v) => (v.id !== undefined ? [v.id] : [])));
  // Left out: removed, or only stopped when an order sold it (its lines keep pointing at it).
  for (const gone of before.variants.filter((v) => !kept.has(v.id)))
    statements.push(
      gone.ordered
        ? db.prepare(`UPDATE product_variants SET active = 0, updated_at = ${NOW} WHERE id = ?`).bind(gone.id)
        : db.prepare("DELETE FROM product_variants WHERE id = ?").bind(gone.id),
    );
  // SKUs that change move aside first, so two variants may swap theirs (or take a removed one's) in
  // one save without meeting the UNIQUE index halfway.
  const renamed = input.variants.filter(
    (v) => v.id !== undefined && before.variants.some((b) => b.id === v.id && b.sku !== v.sku),
  );
  if (renamed.length)
    statements.push(
      db
        .prepare(
          `UPDATE product_variants SET sku = '~' || id || '~' || sku
           WHERE product_id = ? AND id IN (SELECT value FROM json_each(?))`,
        )
        .bind(productId, JSON.stringify(renamed.map((v) => v.id))),
    );
  input.variants.forEach((variant, position) => {
    if (variant.id !== undefined)
      statements.push(
        db
          .prepare(
            `UPDATE product_variants SET sku = ?, barcode = ?, price = ?, compare_at_price = ?, max_per_order = ?, active = ?,
               position = ?, images = COALESCE(?, images), updated_at = ${NOW} WHERE id = ? AND product_id = ?`,
          )
          .bind(
            variant.sku,
            variant.barcode ?? null,
            variant.price,
            variant.compare_at_price,
            variant.max_per_order,
            variant.active ? 1 : 0,
            position,
            variant.images === undefined ? null : JSON.stringify(variant.images),
            variant.id,
            productId,
          ),
      );
    else
      statements.push(
        db
          .prepare(
            `INSERT INTO product_variants (product_id, sku, barcode, price, compare_at_price, stock, max_per_order, active, position, images)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .bind(
            productId,
            variant.sku,
            variant.barcode ?? null,
            variant.price,
            variant.compare_at_price,
            variant.stock ?? 0,
            variant.max_per_order,
            variant.active ? 1 : 0,
            position,
            JSON.stringify(variant.images ?? []),
          ),
        // A new variant's opening stock is its first ledger line, as a new product's is.
        ...((variant.stock ?? 0) > 0
          ? [
              db
                .prepare(
                  `INSERT INTO inventory_adjustments (product_id, variant_id, delta, reason, note, stock_after, staff_user_id, applied)
                   SELECT ?1, id, ?2, 'count', NULL, ?2, ?3, 1 FROM product_variants WHERE sku = ?4`,
                )
                .bind(productId, variant.stock, staff.user_id, variant.sku),
            ]
          : []),
      );
    for (const option of input.options)
      statements.push(
        db
          .prepare(
            `INSERT INTO variant_option_values (variant_id, option_id, value_id)
             SELECT v.id, o.id, ov.id FROM product_variants v JOIN product_options o ON o.product_id = v.product_id
             JOIN product_option_values ov ON ov.option_id = o.id
             WHERE v.product_id = ?1 AND v.sku = ?2 AND o.code = ?3 AND ov.code = ?4`,
          )
          .bind(productId, variant.sku, option.code, variant.options[option.code]),
      );
  });
  statements.push(
    auditStatement(
      db,
      staff,
      "product.variants",
      "product",
      productId,
      { options: before.options.length, variants: before.variants.map((v) => v.sku) },
      { options: input.options.map((o) => o.code), variants: input.variants.map((v) => v.sku) },
    ),
  );
  // The typed values its variants give (storage): filters find it by each of them.
  statements.push(...variantAttributeSql("?1").map((sql) => db.prepare(sql).bind(productId)));
  // A variant put back on sale, or a first variant with stock: the product's waiting shoppers are told.
  statements.push(...stockAlertStatements(db, { productIds: [productId] }));
  return statements;
}
