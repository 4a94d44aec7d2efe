import { ATTRIBUTE_LIMITS, type ConsoleAttribute } from "../../../../contract/console-catalogue-shapes";
import type { ProductAttributesInput } from "../../../../contract/console-catalogue";
import { say } from "../../../../contract/server/i18n";
import { INVALID_INPUT } from "../../../../contract/server/input-messages";
import { bumpCatalogueVersion } from "../../cache";
import type { Lang, StaffCaller } from "../../env";
import { BackendError, notFound } from "../../http";
import { msg } from "../../messages";
import { IN_CATEGORY_ORDER, PRODUCT_ATTRIBUTES } from "../catalogue/attributes";
import { auditStatement } from "./audit-log";
import { reindexProductDetails } from "./products";

/**
 * A product's typed specifications in the console: the attributes its category lists (its own
 * and its parent category's) with the product's values, and their edit, checked value by value
 * against each attribute's type (migration 0037 keeps the same rule in the database).
 */

interface DefinitionRow {
  id: number;
  code: string;
  type: ConsoleAttribute["type"];
  label_en: string;
  label_ar: string;
  unit_en: string | null;
  unit_ar: string | null;
  options: string;
  number_value: number | null;
  option_code: string | null;
  bool_value: number | null;
  text_en: string | null;
  text_ar: string | null;
  /** JSON: the values its variants give (catalogue/variant-attributes.ts), or null. */
  from_variants: string | null;
}

async function definitions(db: D1Database, productId: number): Promise<DefinitionRow[] | null> {
  const [product, rows] = await db.batch([
    db.prepare("SELECT id FROM products WHERE id = ?").bind(productId),
    db
      .prepare(
        `SELECT a.id, a.code, a.type, a.label_en, a.label_ar, a.unit_en, a.unit_ar,
           (SELECT json_group_array(json_object('code', o.code, 'label_en', o.label_en, 'label_ar', o.label_ar))
              FROM (SELECT * FROM attribute_options WHERE attribute_id = a.id ORDER BY position, id) o) AS options,
           v.number_value, vo.code AS option_code, v.bool_value, v.text_en, v.text_ar,
           (SELECT json_group_array(value) FROM (
              SELECT COALESCE(wo.code, w.number_value) AS value FROM product_attribute_values w
              LEFT JOIN attribute_options wo ON wo.id = w.option_id
              WHERE w.product_id = p.id AND w.attribute_id = a.id AND w.value_key <> 0
              ORDER BY wo.position, w.number_value)
            HAVING COUNT(*) > 0) AS from_variants
         ${PRODUCT_ATTRIBUTES}
         LEFT JOIN product_attribute_values v ON v.product_id = p.id AND v.attribute_id = a.id AND v.value_key = 0
         LEFT JOIN attribute_options vo ON vo.id = v.option_id
         WHERE p.id = ?1
         ${IN_CATEGORY_ORDER}`,
      )
      .bind(productId),
  ]);
  if (product.results.length === 0) return null;
  return rows.results as DefinitionRow[];
}

function valueOf(r: DefinitionRow): ConsoleAttribute["value"] {
  if (r.number_value !== null) return r.number_value;
  if (r.option_code !== null) return r.option_code;
  if (r.bool_value !== null) return r.bool_value === 1;
  if (r.text_en !== null) return { en: r.text_en, ar: r.text_ar ?? "" };
  return null;
}

function present(r: DefinitionRow): ConsoleAttribute {
  return {
    code: r.code,
    type: r.type,
    label_en: r.label_en,
    label_ar: r.label_ar,
    unit_en: r.unit_en,
    unit_ar: r.unit_ar,
    options: JSON.parse(r.options) as ConsoleAttribute["options"],
    value: valueOf(r),
    ...(r.from_variants ? { from_variants: JSON.parse(r.from_variants) as (number | string)[] } : {}),
  };
}

/** GET /admin/products/:id/attributes. */
export async function consoleProductAttributes(db: D1Database, productId: number): Promise<ConsoleAttribute[]> {
  const rows = await definitions(db, productId);
  if (!rows) throw notFound();
  return rows.map(present);
}

const MESSAGES = {
  unknown: msg("console.attributes.unknown"),
  number: msg("console.attributes.number"),
  option: msg("console.attributes.option"),
  yesNo: msg("console.attributes.yesNo"),
  text: msg("console.attributes.text"),
  fromVariants: msg("console.attributes.fromVariants"),
};

/** The columns of a value of `r`'s type, or the message that refuses it. */
function columnsOf(
  r: DefinitionRow,
  value: ProductAttributesInput["attributes"][string],
  lang: Lang,
):
  | {
      number_value: number | null;
      option_code: string | null;
      bool_value: number | null;
      text: { en: string; ar: string } | null;
    }
  | string {
  const none = { number_value: null, option_code: null, bool_value: null, text: null };
  switch (r.type) {
    case "number":
      return typeof value === "number" && value >= 0 && value <= ATTRIBUTE_LIMITS.number
        ? { ...none, number_value: value }
        : say(lang, MESSAGES.number, { max: ATTRIBUTE_LIMITS.number.toLocaleString("en-US") });
    case "enum": {
      const codes = (JSON.parse(r.options) as { code: string }[]).map((o) => o.code);
      return typeof value === "string" && codes.includes(value)
        ? { ...none, option_code: value }
        : say(lang, MESSAGES.option);
    }
    case "bool":
      return typeof value === "boolean" ? { ...none, bool_value: value ? 1 : 0 } : say(lang, MESSAGES.yesNo);
    case "text":
      return typeof value === "object" && value !== null && value.en !== "" && value.ar !== ""
        ? { ...none, text: value }
        : say(lang, MESSAGES.text, { max: ATTRIBUTE_LIMITS.text });
  }
}

/**
 * PUT /admin/products/:id/attributes: sets or clears the values named, leaves the others. Every
 * value is checked before anything is written; one refused value refuses the whole edit, with an
 * error per refused code (`attributes.<code>`). Written in one batch with its audit line, and the
 * catalogue version moves, so the product page shows it within seconds.
 */
export async function setProductAttributes(
  db: D1Database,
  lang: Lang,
  staff: Pick<StaffCaller, "user_id" | "email">,
  productId: number,
  input: ProductAttributesInput,
): Promise<ConsoleAttribute[]> {
  const rows = await definitions(db, productId);
  if (!rows) throw notFound();
  const byCode = new Map(rows.map((r) => [r.code, r]));
  const errors: Record<string, string[]> = {};
  const statements: D1PreparedStatement[] = [];
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const [code, value] of Object.entries(input.attributes)) {
    const r = byCode.get(code);
    if (!r) {
      errors[`attributes.${code}`] = [say(lang, MESSAGES.unknown)];
      continue;
    }
    // Its variants give its values: they are edited with the variants.
    if (r.from_variants) {
      errors[`attributes.${code}`] = [say(lang, MESSAGES.fromVariants)];
      continue;
    }
    const old = valueOf(r);
    if (JSON.stringify(old) === JSON.stringify(value)) continue;
    before[code] = old;
    after[code] = value;
    if (value === null) {
      statements.push(
        db
          .prepare("DELETE FROM product_attribute_values WHERE product_id = ? AND attribute_id = ? AND value_key = 0")
          .bind(productId, r.id),
      );
      continue;
    }
    const columns = columnsOf(r, value, lang);
    if (typeof columns === "string") {
      errors[`attributes.${code}`] = [columns];
      continue;
    }
    statements.push(
      db
        .prepare(
          `INSERT INTO product_attribute_values (product_id, attribute_id, number_value, option_id, bool_value, text_en, text_ar)
           VALUES (?1, ?2, ?3, (SELECT id FROM attribute_options WHERE attribute_id = ?2 AND code = ?4), ?5, ?6, ?7)
           ON CONFLICT (product_id, attribute_id, value_key) DO UPDATE SET number_value = excluded.number_value,
             option_id = excluded.option_id, bool_value = excluded.bool_value, text_en = excluded.text_en, text_ar = excluded.text_ar`,
        )
        .bind(
          productId,
          r.id,
          columns.number_value,
          columns.option_code,
          columns.bool_value,
          columns.text?.en ?? null,
          columns.text?.ar ?? null,
        ),
    );
  }
  if (Object.keys(errors).length > 0) throw new BackendError(422, say(lang, INVALID_INPUT), errors);
  if (statements.length > 0) {
    await db.batch([
      ...statements,
      auditStatement(db, staff, "product.attributes", "product", productId, before, after),
      bumpCatalogueVersion(db),
    ]);
    // Its values' words in its details index row: "iphone 256" finds it by the storage set here.
    await reindexProductDetails(db, productId);
  }
  return consoleProductAttributes(db, productId);
}
