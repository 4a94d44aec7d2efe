// The one valibot schema a product goes through whichever way it arrives: the console's
// form, the JSON API, or a row of an imported CSV file. Imports only valibot and sibling contract
// files; the limits and shapes it speaks of are in console-catalogue-shapes.ts.

import * as v from "valibot";
import { ATTRIBUTE_LIMITS, PRODUCT_LIMITS, type Spec } from "./console-catalogue-shapes";
import { latinDigits, type InputMessages } from "./inputs";
import { numberField, optionalNumberField } from "./number-schemas";

export * from "./console-catalogue-shapes";

type M = InputMessages;

/** A text the operator must fill: trimmed, 1 to `max` characters. */
function required(m: M, field: Parameters<M["required"]>[0], max: number) {
  // A field left out reads as empty, so it gets its own "is required" like an empty one.
  return v.pipe(
    v.optional(v.string(m.required(field)), ""),
    v.trim(),
    v.nonEmpty(m.required(field)),
    v.maxLength(max, m.maxLength(field, max)),
  );
}

/** A text that may be left empty (read as ""). */
function optionalText(m: M, field: Parameters<M["required"]>[0], max: number) {
  return v.optional(v.pipe(v.string(m.invalid(field)), v.trim(), v.maxLength(max, m.maxLength(field, max))), "");
}

/** An amount in riyals (halalas as a JSON number), from `min` to `max` halalas. */
const money = (min: number, max: number) => ({ decimals: 2, min, max });
/** A whole count or id from `min` to `max`. */
const count = (min: number, max: number) => ({ decimals: 0, min, max });

const TRUE = ["1", "true", "yes"];
const FALSE = ["0", "false", "no", ""];

function flag(m: M, field: Parameters<M["required"]>[0], fallback: boolean) {
  return v.optional(
    v.union(
      [
        v.boolean(),
        v.pipe(
          v.string(),
          v.trim(),
          v.toLowerCase(),
          v.picklist([...TRUE, ...FALSE], m.invalid(field)),
          v.transform((s) => TRUE.includes(s)),
        ),
      ],
      m.invalid(field),
    ),
    fallback,
  );
}

/**
 * Specifications: a list of {label, value}, or (a CSV cell) one "label: value" per line.
 */
function specs(m: M, field: "specs_en" | "specs_ar") {
  const entry = v.object({
    label: v.pipe(
      v.string(m.invalid(field)),
      v.trim(),
      v.nonEmpty(m.invalid(field)),
      v.maxLength(PRODUCT_LIMITS.specLabel, m.maxLength(field, PRODUCT_LIMITS.specLabel)),
    ),
    value: v.pipe(
      v.string(m.invalid(field)),
      v.trim(),
      v.nonEmpty(m.invalid(field)),
      v.maxLength(PRODUCT_LIMITS.specValue, m.maxLength(field, PRODUCT_LIMITS.specValue)),
    ),
  });
  return v.optional(
    v.pipe(
      v.union([v.array(v.unknown()), v.pipe(v.string(), v.transform(specsFromText))], m.invalid(field)),
      v.maxLength(PRODUCT_LIMITS.specs, m.invalid(field)),
      v.array(entry, m.invalid(field)),
    ),
    [],
  );
}

/** "label: value" lines as specifications (a line without a colon is refused by the schema). */
export function specsFromText(text: string): unknown[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf(":");
      return at < 0 ? { label: "", value: line } : { label: line.slice(0, at), value: line.slice(at + 1) };
    });
}

export const specsToText = (list: Spec[]) => list.map((s) => `${s.label}: ${s.value}`).join("\n");

/** Images are paths on the shop's own origin (the CSP's img-src 'self'): uploads and generated art. */
export const IMAGE_PATH =
  /^\/backend\/media\/(uploads\/[A-Za-z0-9._-]{1,120}|products\/[a-z0-9-]{1,120}\.svg(\?[a-z0-9=&]{0,40})?)$/;

function images(m: M) {
  return v.optional(
    v.pipe(
      v.union(
        [
          v.array(v.string(m.invalid("images"))),
          v.pipe(
            v.string(),
            v.transform((s) => s.split(/\s+/).filter(Boolean)),
          ),
        ],
        m.invalid("images"),
      ),
      v.maxLength(PRODUCT_LIMITS.images, m.invalid("images")),
      v.check((list) => list.every((url) => IMAGE_PATH.test(url)), m.invalid("images")),
    ),
    [],
  );
}

export const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * A GTIN as printed under a barcode: EAN-8, UPC-A (12), EAN-13 or GTIN-14 digits whose last digit
 * is the GS1 check digit of the others (weights 3 and 1 from the right). A shop's own codes that
 * are not GTINs belong in the SKU.
 */
export function validGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12,14})$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/**
 * A field added after the first products: left out (an older CSV file, an older client) it keeps
 * what the product has (undefined); empty clears it (null).
 */
function kept<T>(inner: v.GenericSchema<string, T>, m: M, field: Parameters<M["required"]>[0]) {
  return v.optional(
    v.pipe(
      v.nullable(v.union([v.pipe(v.string(), v.trim(), v.literal("")), inner], m.invalid(field))),
      v.transform((x): T | null => (x === "" || x === null ? null : (x as T))),
    ),
  );
}

function seoText(m: M, field: Parameters<M["required"]>[0], max: number) {
  return kept(v.pipe(v.string(m.invalid(field)), v.trim(), v.maxLength(max, m.maxLength(field, max))), m, field);
}
export const SKU = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A product's fields, for a new product (stock included: its opening stock) or an edit (stock
 * left out: after creation stock changes only through the inventory ledger). Prices are halalas
 * as JSON numbers and riyals as typed text ("299.50", "٢٩٩٫٥٠"; contract/number-schemas.ts).
 */
export function productFields(m: M) {
  return {
    slug: v.pipe(required(m, "slug", PRODUCT_LIMITS.slug), v.toLowerCase(), v.regex(SLUG, m.invalid("slug"))),
    sku: v.pipe(required(m, "sku", PRODUCT_LIMITS.sku), v.regex(SKU, m.invalid("sku"))),
    model: optionalText(m, "model", PRODUCT_LIMITS.model),
    name_en: required(m, "name_en", PRODUCT_LIMITS.name),
    name_ar: required(m, "name_ar", PRODUCT_LIMITS.name),
    description_en: optionalText(m, "description_en", PRODUCT_LIMITS.description),
    description_ar: optionalText(m, "description_ar", PRODUCT_LIMITS.description),
    specs_en: specs(m, "specs_en"),
    specs_ar: specs(m, "specs_ar"),
    price: numberField(m, "price", money(0, PRODUCT_LIMITS.price)),
    compare_at_price: optionalNumberField(m, "compare_at_price", money(0, PRODUCT_LIMITS.price)),
    stock: optionalNumberField(m, "stock", count(0, PRODUCT_LIMITS.stock)),
    max_per_order: v.optional(numberField(m, "max_per_order", count(1, PRODUCT_LIMITS.maxPerOrder)), 5),
    low_stock_threshold: v.optional(numberField(m, "low_stock_threshold", count(0, PRODUCT_LIMITS.lowStock)), 5),
    category_id: numberField(m, "category_id", count(1, 1_000_000_000)),
    brand_id: optionalNumberField(m, "brand_id", count(1, 1_000_000_000)),
    images: images(m),
    is_featured: flag(m, "is_featured", false),
    is_new: flag(m, "is_new", false),
    active: flag(m, "active", true),
    seo_title_en: seoText(m, "seo_title_en", PRODUCT_LIMITS.seoTitle),
    seo_title_ar: seoText(m, "seo_title_ar", PRODUCT_LIMITS.seoTitle),
    seo_description_en: seoText(m, "seo_description_en", PRODUCT_LIMITS.seoDescription),
    seo_description_ar: seoText(m, "seo_description_ar", PRODUCT_LIMITS.seoDescription),
    // Whole grams, Arabic-Indic digits read as digits; a JSON number is taken as it is.
    weight_grams: v.optional(
      v.pipe(
        v.nullable(
          v.union([v.number(), v.pipe(v.string(), v.trim(), v.transform(latinDigits))], m.invalid("weight_grams")),
        ),
        v.transform((x) =>
          x === "" || x === null ? null : typeof x === "number" ? x : /^\d{1,9}$/.test(x) ? Number(x) : NaN,
        ),
        v.nullable(
          v.pipe(
            v.number(m.invalid("weight_grams")),
            v.integer(m.invalid("weight_grams")),
            v.minValue(0, m.invalid("weight_grams")),
            v.maxValue(PRODUCT_LIMITS.weight, m.invalid("weight_grams")),
          ),
        ),
      ),
    ),
    barcode: kept(
      v.pipe(
        v.string(m.invalid("barcode")),
        v.trim(),
        v.transform((s) => latinDigits(s).replace(/[\s-]/g, "")),
        v.check(validGtin, m.invalid("barcode")),
      ),
      m,
      "barcode",
    ),
  };
}

/** The product schema: the form, the API and every CSV row. A compare-at price is above the price. */
export function productInput(m: M) {
  return v.pipe(
    v.object(productFields(m)),
    v.forward(
      v.check((p) => p.compare_at_price === null || p.compare_at_price > p.price, m.invalid("compare_at_price")),
      ["compare_at_price"],
    ),
  );
}

export type ProductInput = v.InferOutput<ReturnType<typeof productInput>>;

/** At most this many products change in one bulk edit (one D1 batch of a few statements each). */
export const BULK_MAX = 200;

/**
 * A bulk edit of the chosen products: a price (set in halalas, or moved by a percentage, rounded
 * to the halala) and/or a stock change (set to a count, or moved by a delta). All or nothing.
 */
export function bulkEditInput(m: M) {
  return v.pipe(
    v.object({
      ids: v.pipe(
        v.array(
          v.pipe(
            v.number(m.invalid("product_ids")),
            v.integer(m.invalid("product_ids")),
            v.minValue(1, m.invalid("product_ids")),
          ),
        ),
        v.minLength(1, m.required("product_ids")),
        v.maxLength(BULK_MAX, m.invalid("product_ids")),
        v.check((ids) => new Set(ids).size === ids.length, m.invalid("product_ids")),
      ),
      price: v.optional(
        v.nullable(
          v.variant(
            "mode",
            [
              v.object({ mode: v.literal("set"), amount: numberField(m, "price", money(0, PRODUCT_LIMITS.price)) }),
              v.object({
                mode: v.literal("percent"),
                // −99 % to +1000 %, to a hundredth of a percent; zero changes nothing, so it is refused.
                percent: v.pipe(
                  v.number(m.invalid("percent")),
                  v.minValue(-99, m.invalid("percent")),
                  v.maxValue(1000, m.invalid("percent")),
                  v.check((n) => n !== 0 && Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, m.invalid("percent")),
                ),
              }),
            ],
            m.invalid("price"),
          ),
        ),
        null,
      ),
      stock: v.optional(
        v.nullable(
          v.variant(
            "mode",
            [
              v.object({ mode: v.literal("set"), value: numberField(m, "stock", count(0, PRODUCT_LIMITS.stock)) }),
              v.object({
                mode: v.literal("adjust"),
                delta: v.pipe(
                  numberField(m, "delta", count(-PRODUCT_LIMITS.stock, PRODUCT_LIMITS.stock)),
                  v.check((n) => n !== 0, m.invalid("delta")),
                ),
              }),
            ],
            m.invalid("stock"),
          ),
        ),
        null,
      ),
    }),
    v.forward(
      v.check((b) => b.price !== null || b.stock !== null, m.required("price")),
      ["price"],
    ),
  );
}

export type BulkEditInput = v.InferOutput<ReturnType<typeof bulkEditInput>>;

/**
 * PUT /admin/products/:id/attributes: each typed specification's new value by its code, null to
 * clear it. The shape only: whether a code belongs to the product's category and a value to its
 * type is the backend's to say (it holds the definitions), per code, as `attributes.<code>`.
 */
export function productAttributesInput(m: M) {
  const value = v.union(
    [
      v.null(),
      v.pipe(v.number(), v.finite()),
      v.boolean(),
      v.pipe(v.string(), v.trim(), v.maxLength(ATTRIBUTE_LIMITS.text)),
      v.object({
        en: v.pipe(v.string(), v.trim(), v.maxLength(ATTRIBUTE_LIMITS.text)),
        ar: v.pipe(v.string(), v.trim(), v.maxLength(ATTRIBUTE_LIMITS.text)),
      }),
    ],
    m.invalid("attributes"),
  );
  return v.object({
    attributes: v.pipe(
      v.record(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,39}$/)), value, m.invalid("attributes")),
      v.check((values) => Object.keys(values).length <= 100, m.invalid("attributes")),
    ),
  });
}
export type ProductAttributesInput = v.InferOutput<ReturnType<typeof productAttributesInput>>;

/** A product's options and variants as the console edits them (GET and PUT /admin/products/:id/variants). */
export const VARIANT_LIMITS = { options: 3, values: 30, variants: 100, name: 40 } as const;

export interface ConsoleVariantOption {
  /** The option's name in the product page's URL. */
  code: string;
  name_en: string;
  name_ar: string;
  kind: "swatch" | "button";
  values: { code: string; value_en: string; value_ar: string; swatch: string | null }[];
}

export interface ConsoleVariant {
  id: number;
  sku: string;
  barcode: string | null;
  price: number;
  compare_at_price: number | null;
  stock: number;
  max_per_order: number;
  active: boolean;
  /** Option code → value code. */
  options: Record<string, string>;
  /** Its own pictures (a colour's); empty: the product's. */
  images: string[];
  /** Sold in an order: removing it only stops selling it. */
  ordered: boolean;
}

export interface ConsoleVariants {
  options: ConsoleVariantOption[];
  variants: ConsoleVariant[];
}

/**
 * A code from a name, for an option (`_` between words: "screen_size") or a value (`-`:
 * "desert-titanium"): lowercase latin letters and digits; empty when the name has none.
 */
export function codeOf(name: string, sep: "-" | "_"): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, sep)
    .replace(sep === "_" ? /^_+|_+$/g : /^-+|-+$/g, "")
    .slice(0, sep === "_" ? 30 : 40);
}

/** The columns of the variants CSV: a row per variant, its product by SKU, up to three options. */
export const VARIANT_CSV_COLUMNS = [
  "product_sku",
  "sku",
  "barcode",
  "price",
  "compare_at_price",
  "stock",
  "max_per_order",
  "active",
  "images",
  "option1",
  "value1",
  "option2",
  "value2",
  "option3",
  "value3",
] as const;

const OPTION_CODE = /^[a-z][a-z0-9_]{0,29}$/;
const VALUE_CODE = /^[a-z0-9][a-z0-9-]{0,39}$/;
/** Option codes the product page's URL uses for itself. */
export const RESERVED_OPTION_CODES = ["page", "q", "lang", "utm_source", "variant"];

/**
 * PUT /admin/products/:id/variants: the product's options (at most three, each with its values) and
 * every variant to sell, each with one value of every option, no two alike. A variant with an `id`
 * is that variant edited (its stock changes through the inventory ledger, not here); one without
 * is new, with its opening stock. A variant left out is removed, or only stopped when it was sold.
 */
export function productVariantsInput(m: M) {
  const fields = productFields(m);
  const value = v.object({
    code: v.pipe(v.string(m.invalid("options")), v.trim(), v.toLowerCase(), v.regex(VALUE_CODE, m.invalid("options"))),
    value_en: required(m, "options", VARIANT_LIMITS.name),
    value_ar: required(m, "options", VARIANT_LIMITS.name),
    swatch: v.optional(
      v.nullable(v.pipe(v.string(m.invalid("options")), v.regex(/^#[0-9a-fA-F]{6}$/, m.invalid("options")))),
      null,
    ),
  });
  const option = v.object({
    code: v.pipe(
      v.string(m.invalid("options")),
      v.trim(),
      v.toLowerCase(),
      v.regex(OPTION_CODE, m.invalid("options")),
      v.check((c) => !RESERVED_OPTION_CODES.includes(c), m.invalid("options")),
    ),
    name_en: required(m, "options", VARIANT_LIMITS.name),
    name_ar: required(m, "options", VARIANT_LIMITS.name),
    kind: v.optional(v.picklist(["swatch", "button"], m.invalid("options")), "button"),
    values: v.pipe(
      v.array(value, m.invalid("options")),
      v.minLength(1, m.required("options")),
      v.maxLength(VARIANT_LIMITS.values, m.invalid("options")),
      v.check((vs) => new Set(vs.map((x) => x.code)).size === vs.length, m.invalid("options")),
    ),
  });
  const variant = v.pipe(
    v.object({
      id: v.optional(v.pipe(v.number(m.invalid("variants")), v.integer(m.invalid("variants")), v.minValue(1))),
      sku: fields.sku,
      barcode: fields.barcode,
      price: fields.price,
      compare_at_price: fields.compare_at_price,
      stock: fields.stock,
      max_per_order: fields.max_per_order,
      active: fields.active,
      options: v.record(v.string(), v.string(), m.invalid("variants")),
      /** Its own pictures (empty: the product's); left out, a saved variant keeps its own. */
      images: v.optional(
        v.pipe(
          v.array(v.string(m.invalid("images")), m.invalid("images")),
          v.maxLength(PRODUCT_LIMITS.images, m.invalid("images")),
          v.check((list) => list.every((url) => IMAGE_PATH.test(url)), m.invalid("images")),
        ),
      ),
    }),
    v.forward(
      v.check((p) => p.compare_at_price === null || p.compare_at_price > p.price, m.invalid("compare_at_price")),
      ["compare_at_price"],
    ),
  );
  return v.pipe(
    v.object({
      options: v.pipe(
        v.optional(v.array(option, m.invalid("options")), []),
        v.maxLength(VARIANT_LIMITS.options, m.invalid("options")),
        v.check((os) => new Set(os.map((o) => o.code)).size === os.length, m.invalid("options")),
      ),
      variants: v.pipe(
        v.array(variant, m.invalid("variants")),
        v.minLength(1, m.required("variants")),
        v.maxLength(VARIANT_LIMITS.variants, m.invalid("variants")),
      ),
    }),
  );
}
export type ProductVariantsInput = v.InferOutput<ReturnType<typeof productVariantsInput>>;
