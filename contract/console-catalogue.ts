// The one valibot schema a product goes through whichever way it arrives (issue 20): the console's
// form, the JSON API, or a row of an imported CSV file. Imports only valibot and sibling contract
// files; the limits and shapes it speaks of are in console-catalogue-shapes.ts.

import * as v from "valibot";
import { PRODUCT_LIMITS, type Spec } from "./console-catalogue-shapes";
import type { InputMessages } from "./inputs";
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
