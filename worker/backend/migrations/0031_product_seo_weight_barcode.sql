-- What a product page tells search engines (its own title and description, per language), the
-- product's shipping weight in whole grams, and its GTIN barcode. All optional: an existing
-- product keeps NULL, and its page goes on using its name and description as before.
ALTER TABLE products ADD COLUMN seo_title_en TEXT;
ALTER TABLE products ADD COLUMN seo_title_ar TEXT;
ALTER TABLE products ADD COLUMN seo_description_en TEXT;
ALTER TABLE products ADD COLUMN seo_description_ar TEXT;
ALTER TABLE products ADD COLUMN weight_grams INTEGER CHECK (weight_grams IS NULL OR weight_grams >= 0);
ALTER TABLE products ADD COLUMN barcode TEXT;
