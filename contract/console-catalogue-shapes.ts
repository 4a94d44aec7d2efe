// The console's products: their limits and the shapes the product list, the form, the
// image upload and the CSV import answer. No dependencies (like limits.ts), so a page can show a
// limit without loading valibot; the schema is in console-catalogue.ts.

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
  /** Search engines show about this much of a title and of a description. */
  seoTitle: 70,
  seoDescription: 160,
  /** Grams: a tonne. */
  weight: 1_000_000,
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
/** At most this many of a file's errors are answered (the first, by row); `error_count` says how many there were. */
export const CSV_REPORT_MAX_ERRORS = 200;

/**
 * The columns of the products CSV, in order (export and the template write them, import reads them
 * by name). Headers are these names in both languages: a file travels between an Arabic and an
 * English operator, and between export and import, unchanged. Prices are riyals ("299.50", or
 * "٢٩٩٫٥٠" as Arabic Excel writes it); `category` and `brand` take a slug, an English or Arabic
 * name, or an id.
 */
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
  "category",
  "brand",
  "images",
  "is_featured",
  "is_new",
  "active",
  "seo_title_en",
  "seo_title_ar",
  "seo_description_en",
  "seo_description_ar",
  "weight_grams",
  "barcode",
] as const;
export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];
/** Older names a file may still use for a column: files written with ids keep importing. */
export const PRODUCT_CSV_ALIASES: Readonly<Record<string, ProductCsvColumn>> = {
  category_id: "category",
  brand_id: "brand",
};

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
  /** Of several variants: the cheapest on sale's (their own prices are edited with the variants). */
  price: number;
  compare_at_price: number | null;
  stock: number;
  max_per_order: number;
  low_stock_threshold: number;
  /** How many variants it sells (absent: one); of several, its price follows theirs. */
  variant_count?: number;
  category_id: number;
  brand_id: number | null;
  images: string[];
  is_featured: boolean;
  is_new: boolean;
  active: boolean;
  /** What search engines show for the product page, per language; null: its name and description. */
  seo_title_en: string | null;
  seo_title_ar: string | null;
  seo_description_en: string | null;
  seo_description_ar: string | null;
  /** Shipping weight in whole grams (the form takes grams and shows kilograms). */
  weight_grams: number | null;
  /** A GTIN (EAN-8, UPC-A, EAN-13 or GTIN-14), its check digit verified. */
  barcode: string | null;
  created_at: string;
  updated_at: string;
}

/** POST /admin/products/bulk: one price change and/or one stock change for the chosen products. */
export interface BulkEditResult {
  updated: number;
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
  /**
   * Row numbers as a spreadsheet shows them (the header is row 1), by row; at most
   * CSV_REPORT_MAX_ERRORS of them. Empty: the file is good.
   */
  errors: { row: number; field: string; message: string }[];
  /** How many errors the file has in all (`errors` holds the first of them). */
  error_count: number;
  written: boolean;
}

/** A typed specification as the console edits it: its definition and the product's value, if any. */
export interface ConsoleAttribute {
  code: string;
  type: "number" | "enum" | "bool" | "text";
  label_en: string;
  label_ar: string;
  unit_en: string | null;
  unit_ar: string | null;
  /** An enumeration's choices, in order (empty for the other types). */
  options: { code: string; label_en: string; label_ar: string }[];
  /** A number, an option's code, yes or no, text in both languages; null when the product has none. */
  value: number | string | boolean | { en: string; ar: string } | null;
  /**
   * The values its variants give (option codes or numbers, in order), when an option of the
   * product is this attribute ("storage"): they are its values, and the product's own is not edited.
   */
  from_variants?: (number | string)[];
}

/** Bounds of a typed value: numbers from 0 to a billion (a unit's count), text as a free-form row's value. */
export const ATTRIBUTE_LIMITS = { number: 1_000_000_000, text: 200 } as const;
