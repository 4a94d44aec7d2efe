-- Content (services, pages, home banners, contact messages) and the catalogue's search index.
-- Localized text has _en and _ar columns; money is integer minor units (halalas).

-- The product's main colour, used to draw its generated SVG art.
ALTER TABLE products ADD COLUMN colour TEXT NOT NULL DEFAULT '#4b5563';

-- Search index: one row per product, rowid = products.id. Both columns hold text already folded
-- by foldArabic (worker/backend/services/arabic.ts): `name` (English and Arabic names, model)
-- ranks above `body` (sku, brand and category names in both languages). unicode61 strips
-- what remains of Latin diacritics; the prefix index makes type-ahead queries cheap.
CREATE VIRTUAL TABLE product_search USING fts5(
  name,
  body,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);

CREATE TABLE services (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name_en TEXT NOT NULL,
  name_ar TEXT NOT NULL,
  summary_en TEXT NOT NULL,
  summary_ar TEXT NOT NULL,
  description_en TEXT NOT NULL,
  description_ar TEXT NOT NULL,
  -- JSON arrays of strings
  features_en TEXT NOT NULL DEFAULT '[]',
  features_ar TEXT NOT NULL DEFAULT '[]',
  icon TEXT NOT NULL,
  price_from INTEGER NOT NULL CHECK (price_from >= 0),
  currency TEXT NOT NULL DEFAULT 'SAR',
  sort_order INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE pages (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  title_en TEXT NOT NULL,
  title_ar TEXT NOT NULL,
  excerpt_en TEXT NOT NULL,
  excerpt_ar TEXT NOT NULL,
  -- Plain text: paragraphs separated by a blank line, a line starting "## " is a heading.
  body_en TEXT NOT NULL,
  body_ar TEXT NOT NULL,
  sort_order INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE banners (
  id INTEGER PRIMARY KEY,
  title_en TEXT NOT NULL,
  title_ar TEXT NOT NULL,
  subtitle_en TEXT NOT NULL,
  subtitle_ar TEXT NOT NULL,
  cta_en TEXT NOT NULL,
  cta_ar TEXT NOT NULL,
  -- A path without the locale prefix, e.g. /products?category=phones; the storefront adds /{locale}.
  link TEXT NOT NULL,
  -- Gradient stops and the motif drawn by the generated banner art.
  colour_from TEXT NOT NULL,
  colour_to TEXT NOT NULL,
  motif TEXT NOT NULL,
  sort_order INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE contact_messages (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  phone TEXT,
  subject TEXT NOT NULL,
  message TEXT NOT NULL,
  lang TEXT NOT NULL,
  -- SHA-256 of the sender's IP: enough to spot abuse, without keeping the address itself.
  ip_hash TEXT,
  request_id TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX contact_messages_created ON contact_messages(created_at);
CREATE INDEX products_featured ON products(is_featured, is_new);
