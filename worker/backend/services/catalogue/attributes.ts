import type { ProductAttribute } from "../../../../contract/catalogue";
import type { Lang } from "../../env";
import { col } from "./summary";

/**
 * Typed specifications (migration 0037): which attributes a product carries, and its values as
 * the storefront reads them. The console's edit (services/console/product-attributes.ts) reads
 * the same attributes through the same two fragments.
 */

/**
 * The attributes a product carries: those its category lists and its parent category's (a
 * subcategory adds its parent's). Aliases `p` (the product), `c`, `ca` and `a` (the attribute);
 * the query ends with IN_CATEGORY_ORDER.
 */
export const PRODUCT_ATTRIBUTES = `FROM products p
       JOIN categories c ON c.id = p.category_id
       JOIN category_attributes ca ON ca.category_id IN (c.id, c.parent_id)
       JOIN attributes a ON a.id = ca.attribute_id`;
/** One row per attribute (listed by both categories, it comes once), in the category's table order. */
export const IN_CATEGORY_ORDER = "GROUP BY a.id ORDER BY MIN(ca.position), a.position";

export interface AttributeRow {
  code: string;
  type: ProductAttribute["type"];
  label: string;
  grp: string;
  unit: string | null;
  number_value: number | null;
  bool_value: number | null;
  text: string | null;
  option_code: string | null;
  option_label: string | null;
  /** JSON [number, option label, option code] of each value its variants give, or null. */
  variant_values: string | null;
}

/**
 * The typed specifications of the product with this slug: the attributes its category lists (a
 * subcategory's own and its parent's), in the category's order, that the product has a value for.
 */
export function attributesStatement(db: D1Database, lang: Lang, slug: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT a.code, a.type, a.${col("label", lang)} AS label, a.${col("group", lang)} AS grp, a.${col("unit", lang)} AS unit,
         v.number_value, v.bool_value, v.${col("text", lang)} AS text, o.code AS option_code, o.${col("label", lang)} AS option_label,
         (SELECT json_group_array(json_array(number_value, label, code)) FROM (
            SELECT w.number_value, wo.${col("label", lang)} AS label, wo.code FROM product_attribute_values w
            LEFT JOIN attribute_options wo ON wo.id = w.option_id
            WHERE w.product_id = p.id AND w.attribute_id = a.id AND w.value_key <> 0
            ORDER BY wo.position, w.number_value)
          HAVING COUNT(*) > 0) AS variant_values
       ${PRODUCT_ATTRIBUTES}
       JOIN product_attribute_values v ON v.product_id = p.id AND v.attribute_id = a.id
       LEFT JOIN attribute_options o ON o.id = v.option_id
       WHERE p.slug = ?1 AND p.active = 1
       ${IN_CATEGORY_ORDER}`,
    )
    .bind(slug);
}

export function toAttribute(r: AttributeRow): ProductAttribute {
  const base = { code: r.code, label: r.label, group: r.grp };
  // The values its variants give, in order (migration 0041), when they are its values.
  const each = r.variant_values
    ? (JSON.parse(r.variant_values) as [number: number | null, label: string | null, code: string | null][])
    : null;
  switch (r.type) {
    case "number":
      return each
        ? { ...base, type: "number", value: each[0][0] ?? 0, unit: r.unit, values: each.map((e) => e[0] ?? 0) }
        : { ...base, type: "number", value: r.number_value ?? 0, unit: r.unit };
    case "enum":
      return each
        ? {
            ...base,
            type: "enum",
            value: each[0][2] ?? "",
            option: each[0][1] ?? "",
            options: each.map((e) => e[1] ?? ""),
          }
        : { ...base, type: "enum", value: r.option_code ?? "", option: r.option_label ?? "" };
    case "bool":
      return { ...base, type: "bool", value: r.bool_value === 1 };
    case "text":
      return { ...base, type: "text", value: r.text ?? "" };
  }
}

/**
 * Each product's typed values as words for its details index row (beside its names and
 * descriptions): a number with its unit in both languages ("65 inch بوصة"), an option's
 * names, a yes's attribute name ("5G"), a text in both languages. So "65 inch tv", "iphone 256"
 * and «تلفزيون 65 بوصة» find the products whose values they name; then the values its variants
 * are chosen by. Rows: product_id, words, and `options`: those values alone, which the names
 * index's body holds too, so a search of a name and a variant ("iphone 16 pro 512") meets in one row.
 */
export function attributeWordsStatement(db: D1Database, productIds: readonly number[]): D1PreparedStatement {
  return db
    .prepare(
      `SELECT product_id, GROUP_CONCAT(words, ' ') AS words,
         GROUP_CONCAT(CASE WHEN part = 1 THEN words END, ' ') AS options FROM (
         SELECT v.product_id, CASE
           WHEN v.number_value IS NOT NULL THEN printf('%g', v.number_value) || ' ' || IFNULL(a.unit_en, '') || ' ' || IFNULL(a.unit_ar, '')
           WHEN v.option_id IS NOT NULL THEN o.label_en || ' ' || o.label_ar
           WHEN v.bool_value = 1 THEN a.label_en || ' ' || a.label_ar
           WHEN v.text_en IS NOT NULL THEN v.text_en || ' ' || v.text_ar
           ELSE '' END AS words, 0 AS part, v.attribute_id AS k1, 0 AS k2
         FROM product_attribute_values v
         JOIN attributes a ON a.id = v.attribute_id
         LEFT JOIN attribute_options o ON o.id = v.option_id
         -- The values its variants give are their options' words, below.
         WHERE v.product_id IN (SELECT value FROM json_each(?1)) AND v.value_key = 0
         UNION ALL
         -- The values its variants are chosen by ("Desert Titanium", "512 GB"), so a search names a variant.
         SELECT po.product_id, ov.value_en || ' ' || ov.value_ar, 1, po.position * 1000 + ov.position, ov.id
         FROM product_option_values ov JOIN product_options po ON po.id = ov.option_id
         WHERE po.product_id IN (SELECT value FROM json_each(?1))
         ORDER BY 1, 3, 4, 5
       ) GROUP BY product_id`,
    )
    .bind(JSON.stringify(productIds));
}
