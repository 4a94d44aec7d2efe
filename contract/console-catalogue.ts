// The console's products (issue 20): what the product list and form show, and the one valibot
// schema a product goes through whichever way it arrives: the console's form, the JSON API, or a
// row of an imported CSV file. Imports only valibot and sibling contract files.

import * as v from "valibot";
import type { InputMessages } from "./inputs";

/** Bounds of a product's fields (characters, halalas, counts). */
export const PRODUCT_LIMITS = {
  name: 200,
  description: 5000,
  slug: 120,
  sku: 64,
  model: 64,
  specs: 40,
  specLabel: 60,
  specValue: 200,
  images: 8,
  imageUrl: 300,
  /** SAR 1,000,000 in halalas. */
  price: 100_000_000,
  stock: 1_000_000,
  maxPerOrder: 99,
  lowStock: 100_000,
} as const;

/** Uploaded images: at most this many bytes, of these types (recognised by their first bytes). */
export const MEDIA_MAX_BYTES = 5 * 1024 * 1024;
export const MEDIA_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];

/**
 * A CSV import takes at most this many rows and bytes: its rows are written in ONE D1 batch (all or
 * nothing), about six statements a row, and a batch must finish within D1's 30 s per query.
 */
export const CSV_MAX_ROWS = 1000;
export const CSV_MAX_BYTES = 2 * 1024 * 1024;

/** The columns of the products CSV, in order (export writes them, import reads them by name). */
export const PRODUCT_CSV_COLUMNS = [
  "sku",
  "slug",
  "model",
  "name_en",
  "name_ar",
  "description_en",
  "description_ar",
  "specs_en",
  "specs_ar",
  "price",
  "compare_at_price",
  "stock",
  "max_per_order",
  "low_stock_threshold",
  "category_id",
  "brand_id",
  "images",
  "is_featured",
  "is_new",
  "active",
] as const;
export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];

export const STOCK_STATES = ["in_stock", "low", "out"] as const;
export type StockState = (typeof STOCK_STATES)[number];

export interface Spec {
  label: string;
  value: string;
}

/** A row of the console's product list. */
export interface ConsoleProductRow {
  id: number;
  slug: string;
  sku: string;
  name_en: string;
  name_ar: string;
  price: number;
  stock: number;
  low_stock_threshold: number;
  active: boolean;
  image: string | null;
  category_id: number;
  brand_id: number | null;
  updated_at: string;
}

/** A product as the console edits it: both languages side by side. */
export interface ConsoleProduct {
  id: number;
  slug: string;
  sku: string;
  model: string | null;
  name_en: string;
  name_ar: string;
  description_en: string;
  description_ar: string;
  specs_en: Spec[];
  specs_ar: Spec[];
  price: number;
  compare_at_price: number | null;
  stock: number;
  max_per_order: number;
  low_stock_threshold: number;
  category_id: number;
  brand_id: number | null;
  images: string[];
  is_featured: boolean;
  is_new: boolean;
  active: boolean;
  created_at: string;
  updated_at: string;
}

/** What the product form's selects offer. */
export interface ProductChoices {
  categories: { id: number; name_en: string; name_ar: string; parent_id: number | null }[];
  brands: { id: number; name_en: string; name_ar: string }[];
}

/** POST /admin/media's answer: where the image is served. */
export interface MediaUpload {
  key: string;
  url: string;
  content_type: MediaType;
  size: number;
  width: number;
  height: number;
}

/** A CSV import's answer: what it would do (dry run) or did, or every row's errors. */
export interface CsvImportReport {
  dry_run: boolean;
  rows: number;
  created: number;
  updated: number;
  /** Row numbers as a spreadsheet shows them (the header is row 1). Empty: the file is good. */
  errors: { row: number; field: string; message: string }[];
  written: boolean;
}

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

/**
 * A whole number from `min` to `max`, given as a number (JSON) or as digits (a form field, a CSV
 * cell): one schema for every way a product arrives.
 */
function whole(m: M, field: Parameters<M["required"]>[0], min: number, max: number) {
  return v.pipe(
    v.optional(
      v.union(
        [
          v.number(m.invalid(field)),
          v.pipe(
            v.string(m.invalid(field)),
            v.trim(),
            v.nonEmpty(m.required(field)),
            v.regex(/^-?\d{1,12}$/, m.invalid(field)),
            v.transform(Number),
          ),
        ],
        m.invalid(field),
      ),
      "",
    ),
    v.integer(m.invalid(field)),
    v.minValue(min, m.invalid(field)),
    v.maxValue(max, m.invalid(field)),
  );
}

/** Like `whole`, where empty (or null) means "none". */
function optionalWhole(m: M, field: Parameters<M["required"]>[0], min: number, max: number) {
  return v.optional(
    v.pipe(
      v.nullable(v.union([v.literal(""), whole(m, field, min, max)], m.invalid(field))),
      v.transform((n) => (n === "" || n === null ? null : n)),
    ),
    null,
  );
}

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
 * left out: after creation stock changes only through the inventory ledger).
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
    price: whole(m, "price", 0, PRODUCT_LIMITS.price),
    compare_at_price: optionalWhole(m, "compare_at_price", 0, PRODUCT_LIMITS.price),
    stock: optionalWhole(m, "stock", 0, PRODUCT_LIMITS.stock),
    max_per_order: v.optional(whole(m, "max_per_order", 1, PRODUCT_LIMITS.maxPerOrder), 5),
    low_stock_threshold: v.optional(whole(m, "low_stock_threshold", 0, PRODUCT_LIMITS.lowStock), 5),
    category_id: whole(m, "category_id", 1, 1_000_000_000),
    brand_id: optionalWhole(m, "brand_id", 1, 1_000_000_000),
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
