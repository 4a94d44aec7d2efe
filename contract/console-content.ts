import * as v from "valibot";
import type { InputMessages } from "./inputs";

/**
 * Categories, brands, services, content pages and inventory in the operator console:
 * what the lists and forms show, and the schemas both the forms and the /admin routes check.
 * Text is stored in both languages side by side (_en, _ar); money is integer halalas.
 */

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const CONTENT_LIMITS = {
  slug: 120,
  name: 100,
  icon: 40,
  summary: 300,
  description: 5000,
  feature: 200,
  features: 20,
  title: 150,
  excerpt: 300,
  body: 20_000,
  sortOrder: 10_000,
  priceFrom: 100_000_000,
  note: 300,
  delta: 100_000,
} as const;

export const CATEGORY_SORTS = ["sort_order", "name_en", "name_ar", "slug", "products"] as const;
export const BRAND_SORTS = ["name_en", "name_ar", "slug", "products"] as const;
export const SERVICE_SORTS = ["sort_order", "name_en", "price_from", "slug"] as const;
export const PAGE_SORTS = ["sort_order", "title_en", "slug", "updated_at"] as const;
export const ADJUSTMENT_SORTS = ["created_at", "delta", "reason"] as const;
export const LOW_STOCK_SORTS = ["stock", "name_en", "sku"] as const;

export interface ConsoleCategory {
  id: number;
  parent_id: number | null;
  slug: string;
  name_en: string;
  name_ar: string;
  icon: string | null;
  sort_order: number;
  /** Products directly in this category. */
  products: number;
  /** Categories directly under this one. */
  children: number;
}

export interface ConsoleBrand {
  id: number;
  slug: string;
  name_en: string;
  name_ar: string;
  products: number;
}

export interface ConsoleService {
  id: number;
  slug: string;
  name_en: string;
  name_ar: string;
  summary_en: string;
  summary_ar: string;
  description_en: string;
  description_ar: string;
  features_en: string[];
  features_ar: string[];
  icon: string;
  price_from: number;
  sort_order: number;
}

export interface ConsolePage {
  id: number;
  slug: string;
  title_en: string;
  title_ar: string;
  excerpt_en: string;
  excerpt_ar: string;
  body_en: string;
  body_ar: string;
  sort_order: number;
  updated_at: string;
}

export const ADJUSTMENT_REASONS = ["received", "damaged", "count", "other"] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];

/**
 * The ledger's kinds of line beside staff's own adjustments: `returned` (a return received or a
 * refund with restock), `sale` (an order took the units at checkout, or again when its payment was
 * retried) and `released` (an unpaid, cancelled, expired or declined order gave them back).
 */
export const LEDGER_REASONS = [...ADJUSTMENT_REASONS, "returned", "sale", "released"] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/**
 * A line of the inventory ledger: every change of a product's stock, whoever made it (staff's
 * adjustments and restocks, `source` "adjustment"; an order's sale or release, `source` "order",
 * with its number). `id` is unique within its source. `stock_after` is the product's stock right
 * after the line: each line's balance is the one before it plus its delta, and the newest is the
 * stock now.
 */
export interface InventoryAdjustment {
  id: number;
  source: "adjustment" | "order";
  product_id: number;
  /** The variant whose stock moved; `sku` and the names are the variant's. */
  variant_id: number;
  sku: string;
  name_en: string;
  name_ar: string;
  delta: number;
  reason: LedgerReason;
  note: string | null;
  stock_after: number;
  /** The staff member who made the line, by name (email kept for the audit's sake), null for an order's line. */
  staff_name: string | null;
  staff_email: string | null;
  order_number: string | null;
  created_at: string;
}

/**
 * A variant as the inventory page shows it (low-stock list, product picker): `id` is its product,
 * `sku`, the names (with the variant's values) and the stock are the variant's.
 */
export interface StockProduct {
  id: number;
  variant_id: number;
  sku: string;
  name_en: string;
  name_ar: string;
  stock: number;
  low_stock_threshold: number;
}

type Field = Parameters<InputMessages["required"]>[0];

function text(m: InputMessages, field: Field, max: number, required = true) {
  return required
    ? v.pipe(
        v.string(m.required(field)),
        v.trim(),
        v.nonEmpty(m.required(field)),
        v.maxLength(max, m.maxLength(field, max)),
      )
    : v.optional(v.pipe(v.string(m.invalid(field)), v.trim(), v.maxLength(max, m.maxLength(field, max))), "");
}

function whole(m: InputMessages, field: Field, min: number, max: number) {
  return v.pipe(
    v.number(m.invalid(field)),
    v.integer(m.invalid(field)),
    v.minValue(min, m.invalid(field)),
    v.maxValue(max, m.invalid(field)),
  );
}

const slug = (m: InputMessages) =>
  v.pipe(
    v.string(m.required("slug")),
    v.trim(),
    v.nonEmpty(m.required("slug")),
    v.maxLength(CONTENT_LIMITS.slug, m.maxLength("slug", CONTENT_LIMITS.slug)),
    v.regex(SLUG_PATTERN, m.invalid("slug")),
  );

const sortOrder = (m: InputMessages) =>
  v.optional(whole(m, "sort_order", -CONTENT_LIMITS.sortOrder, CONTENT_LIMITS.sortOrder), 0);

const names = (m: InputMessages) => ({
  name_en: text(m, "name_en", CONTENT_LIMITS.name),
  name_ar: text(m, "name_ar", CONTENT_LIMITS.name),
});

/** POST/PUT /admin/categories. */
export function categoryInput(m: InputMessages) {
  return v.object({
    slug: slug(m),
    ...names(m),
    parent_id: v.optional(v.nullable(whole(m, "parent_id", 1, Number.MAX_SAFE_INTEGER)), null),
    icon: v.optional(
      v.nullable(
        v.pipe(
          v.string(m.invalid("icon")),
          v.trim(),
          v.maxLength(CONTENT_LIMITS.icon, m.maxLength("icon", CONTENT_LIMITS.icon)),
          v.transform((s) => s || null),
        ),
      ),
      null,
    ),
    sort_order: sortOrder(m),
  });
}
export type CategoryInput = v.InferOutput<ReturnType<typeof categoryInput>>;

/** POST/PUT /admin/brands. */
export function brandInput(m: InputMessages) {
  return v.object({ slug: slug(m), ...names(m) });
}
export type BrandInput = v.InferOutput<ReturnType<typeof brandInput>>;

const features = (m: InputMessages, field: "features_en" | "features_ar") =>
  v.optional(
    v.pipe(
      v.array(
        v.pipe(
          v.string(m.invalid(field)),
          v.trim(),
          v.maxLength(CONTENT_LIMITS.feature, m.maxLength(field, CONTENT_LIMITS.feature)),
        ),
        m.invalid(field),
      ),
      v.maxLength(CONTENT_LIMITS.features, m.invalid(field)),
      v.transform((list) => list.filter((f) => f !== "")),
    ),
    [],
  );

/** POST/PUT /admin/services. */
export function serviceInput(m: InputMessages) {
  return v.object({
    slug: slug(m),
    ...names(m),
    summary_en: text(m, "summary_en", CONTENT_LIMITS.summary),
    summary_ar: text(m, "summary_ar", CONTENT_LIMITS.summary),
    description_en: text(m, "description_en", CONTENT_LIMITS.description),
    description_ar: text(m, "description_ar", CONTENT_LIMITS.description),
    features_en: features(m, "features_en"),
    features_ar: features(m, "features_ar"),
    icon: text(m, "icon", CONTENT_LIMITS.icon),
    price_from: whole(m, "price_from", 0, CONTENT_LIMITS.priceFrom),
    sort_order: sortOrder(m),
  });
}
export type ServiceInput = v.InferOutput<ReturnType<typeof serviceInput>>;

/** POST/PUT /admin/pages. */
export function pageInput(m: InputMessages) {
  return v.object({
    slug: slug(m),
    title_en: text(m, "title_en", CONTENT_LIMITS.title),
    title_ar: text(m, "title_ar", CONTENT_LIMITS.title),
    excerpt_en: text(m, "excerpt_en", CONTENT_LIMITS.excerpt),
    excerpt_ar: text(m, "excerpt_ar", CONTENT_LIMITS.excerpt),
    body_en: text(m, "body_en", CONTENT_LIMITS.body),
    body_ar: text(m, "body_ar", CONTENT_LIMITS.body),
    sort_order: sortOrder(m),
  });
}
export type PageInput = v.InferOutput<ReturnType<typeof pageInput>>;

/**
 * POST /admin/inventory/adjustments. A count sends what was counted (`counted`); every other
 * reason sends the change (`delta`, never 0). The schema takes either; the backend needs the one
 * the reason asks for (a missing one is a field error on it).
 */
export function adjustmentInput(m: InputMessages) {
  return v.object({
    product_id: whole(m, "product_id", 1, Number.MAX_SAFE_INTEGER),
    /** The variant to adjust; may be left out for a product of one variant. */
    variant_id: v.optional(v.nullable(whole(m, "variant_id", 1, Number.MAX_SAFE_INTEGER)), null),
    reason: v.picklist(ADJUSTMENT_REASONS, m.invalid("reason")),
    delta: v.optional(
      v.nullable(
        v.pipe(
          whole(m, "delta", -CONTENT_LIMITS.delta, CONTENT_LIMITS.delta),
          v.check((n) => n !== 0, m.invalid("delta")),
        ),
      ),
      null,
    ),
    counted: v.optional(v.nullable(whole(m, "counted", 0, CONTENT_LIMITS.delta)), null),
    note: v.optional(
      v.nullable(
        v.pipe(
          v.string(m.invalid("note")),
          v.trim(),
          v.maxLength(CONTENT_LIMITS.note, m.maxLength("note", CONTENT_LIMITS.note)),
          v.transform((s) => s || null),
        ),
      ),
      null,
    ),
  });
}
export type AdjustmentInput = v.InferOutput<ReturnType<typeof adjustmentInput>>;
