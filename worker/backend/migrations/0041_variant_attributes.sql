-- A typed attribute may be the variants' rather than the product's: a phone's storage is chosen
-- among its variants (128 GB to 1 TB), its screen size is the product's. When a product's option
-- has an attribute's code and its values are that attribute's options (or, for a number, numbers),
-- the product holds one value of that attribute per value its variants on sale have, so a filter
-- on 512 GB finds the phone sold in 512 GB and the counts count it under each of its sizes
-- (services/catalogue/variant-attributes.ts writes them when its variants change).
--
-- The table is rebuilt for its key: `value_key` is 0 for the product's own value (one per
-- attribute, as before) and, for a value its variants give, the option's id or the number. Every
-- row keeps its values; the kept counts (migration 0039) are not touched, since the rows are the same.
CREATE TABLE product_attribute_values_new (
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  attribute_id INTEGER NOT NULL REFERENCES attributes(id) ON DELETE CASCADE,
  number_value REAL,
  option_id INTEGER REFERENCES attribute_options(id) ON DELETE CASCADE,
  bool_value INTEGER CHECK (bool_value IS NULL OR bool_value IN (0, 1)),
  text_en TEXT,
  text_ar TEXT,
  value_key REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (product_id, attribute_id, value_key),
  CHECK ((number_value IS NOT NULL) + (option_id IS NOT NULL) + (bool_value IS NOT NULL) + (text_en IS NOT NULL) = 1),
  CHECK ((text_en IS NULL) = (text_ar IS NULL)),
  -- A variant's value is an option or a number, keyed by itself.
  CHECK (value_key = 0 OR value_key = COALESCE(option_id, number_value))
) WITHOUT ROWID;

INSERT INTO product_attribute_values_new (product_id, attribute_id, number_value, option_id, bool_value, text_en, text_ar, value_key)
SELECT product_id, attribute_id, number_value, option_id, bool_value, text_en, text_ar, 0 FROM product_attribute_values;

-- The products' triggers that read the values (migration 0039) go first: the rename checks every
-- trigger, and theirs would name a table that is gone for a moment. They come back below as they were.
DROP TRIGGER products_attribute_counts_update;
DROP TRIGGER products_attribute_counts_delete;
DROP TABLE product_attribute_values;
ALTER TABLE product_attribute_values_new RENAME TO product_attribute_values;

CREATE INDEX product_attribute_values_option ON product_attribute_values(attribute_id, option_id);
CREATE INDEX product_attribute_values_number ON product_attribute_values(attribute_id, number_value);

-- As migration 0037: a value is of its attribute's type, and an option is one of its attribute's own.
CREATE TRIGGER product_attribute_values_typed_insert BEFORE INSERT ON product_attribute_values
WHEN (SELECT type FROM attributes WHERE id = NEW.attribute_id) IS NOT CASE
    WHEN NEW.number_value IS NOT NULL THEN 'number'
    WHEN NEW.option_id IS NOT NULL THEN 'enum'
    WHEN NEW.bool_value IS NOT NULL THEN 'bool'
    ELSE 'text' END
  OR (NEW.option_id IS NOT NULL AND (SELECT attribute_id FROM attribute_options WHERE id = NEW.option_id) IS NOT NEW.attribute_id)
BEGIN
  SELECT RAISE(ABORT, 'attribute value does not match its attribute');
END;
CREATE TRIGGER product_attribute_values_typed_update BEFORE UPDATE ON product_attribute_values
WHEN (SELECT type FROM attributes WHERE id = NEW.attribute_id) IS NOT CASE
    WHEN NEW.number_value IS NOT NULL THEN 'number'
    WHEN NEW.option_id IS NOT NULL THEN 'enum'
    WHEN NEW.bool_value IS NOT NULL THEN 'bool'
    ELSE 'text' END
  OR (NEW.option_id IS NOT NULL AND (SELECT attribute_id FROM attribute_options WHERE id = NEW.option_id) IS NOT NEW.attribute_id)
BEGIN
  SELECT RAISE(ABORT, 'attribute value does not match its attribute');
END;

-- As migration 0039: the kept counts follow every value written, whoever writes it.
CREATE TRIGGER attribute_values_counted_insert AFTER INSERT ON product_attribute_values WHEN NEW.text_en IS NULL
BEGIN
  INSERT INTO attribute_value_counts (category_id, brand_id, attribute_id, value, band, in_stock, n)
  SELECT p.category_id, IFNULL(p.brand_id, 0), NEW.attribute_id, COALESCE(NEW.option_id, NEW.number_value, NEW.bool_value), CASE WHEN p.price < 50000 THEN 0 WHEN p.price < 150000 THEN 1 WHEN p.price < 300000 THEN 2 WHEN p.price < 600000 THEN 3 ELSE 4 END, p.stock > 0, 1
  FROM products p WHERE p.id = NEW.product_id AND p.active = 1
  ON CONFLICT (category_id, brand_id, attribute_id, value, band, in_stock) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER attribute_values_counted_delete AFTER DELETE ON product_attribute_values WHEN OLD.text_en IS NULL
BEGIN
  UPDATE attribute_value_counts SET n = n - 1
  WHERE attribute_id = OLD.attribute_id AND value = COALESCE(OLD.option_id, OLD.number_value, OLD.bool_value)
    AND (category_id, brand_id, band, in_stock) =
      (SELECT p.category_id, IFNULL(p.brand_id, 0), CASE WHEN p.price < 50000 THEN 0 WHEN p.price < 150000 THEN 1 WHEN p.price < 300000 THEN 2 WHEN p.price < 600000 THEN 3 ELSE 4 END, p.stock > 0 FROM products p WHERE p.id = OLD.product_id AND p.active = 1);
END;

CREATE TRIGGER attribute_values_counted_update AFTER UPDATE OF number_value, option_id, bool_value ON product_attribute_values
WHEN OLD.text_en IS NULL AND NEW.text_en IS NULL AND COALESCE(OLD.option_id, OLD.number_value, OLD.bool_value) IS NOT COALESCE(NEW.option_id, NEW.number_value, NEW.bool_value)
BEGIN
  UPDATE attribute_value_counts SET n = n - 1
  WHERE attribute_id = OLD.attribute_id AND value = COALESCE(OLD.option_id, OLD.number_value, OLD.bool_value)
    AND (category_id, brand_id, band, in_stock) =
      (SELECT p.category_id, IFNULL(p.brand_id, 0), CASE WHEN p.price < 50000 THEN 0 WHEN p.price < 150000 THEN 1 WHEN p.price < 300000 THEN 2 WHEN p.price < 600000 THEN 3 ELSE 4 END, p.stock > 0 FROM products p WHERE p.id = OLD.product_id AND p.active = 1);
  INSERT INTO attribute_value_counts (category_id, brand_id, attribute_id, value, band, in_stock, n)
  SELECT p.category_id, IFNULL(p.brand_id, 0), NEW.attribute_id, COALESCE(NEW.option_id, NEW.number_value, NEW.bool_value), CASE WHEN p.price < 50000 THEN 0 WHEN p.price < 150000 THEN 1 WHEN p.price < 300000 THEN 2 WHEN p.price < 600000 THEN 3 ELSE 4 END, p.stock > 0, 1
  FROM products p WHERE p.id = NEW.product_id AND p.active = 1
  ON CONFLICT (category_id, brand_id, attribute_id, value, band, in_stock) DO UPDATE SET n = n + 1;
END;

-- A product that changes cell (category, brand, price band, in stock or not, shown or hidden) moves
-- each of its values with it; a sale of one of five left writes nothing here.
CREATE TRIGGER products_attribute_counts_update AFTER UPDATE OF category_id, brand_id, price, stock, active ON products
WHEN OLD.active IS NOT NEW.active OR OLD.category_id IS NOT NEW.category_id OR OLD.brand_id IS NOT NEW.brand_id
  OR (OLD.stock > 0) IS NOT (NEW.stock > 0)
  OR (CASE WHEN OLD.price < 50000 THEN 0 WHEN OLD.price < 150000 THEN 1 WHEN OLD.price < 300000 THEN 2 WHEN OLD.price < 600000 THEN 3 ELSE 4 END) IS NOT (CASE WHEN NEW.price < 50000 THEN 0 WHEN NEW.price < 150000 THEN 1 WHEN NEW.price < 300000 THEN 2 WHEN NEW.price < 600000 THEN 3 ELSE 4 END)
BEGIN
  UPDATE attribute_value_counts SET n = n - 1
  WHERE OLD.active = 1 AND category_id = OLD.category_id AND brand_id = IFNULL(OLD.brand_id, 0) AND band = CASE WHEN OLD.price < 50000 THEN 0 WHEN OLD.price < 150000 THEN 1 WHEN OLD.price < 300000 THEN 2 WHEN OLD.price < 600000 THEN 3 ELSE 4 END AND in_stock = (OLD.stock > 0)
    AND (attribute_id, value) IN (
      SELECT attribute_id, COALESCE(option_id, number_value, bool_value) FROM product_attribute_values WHERE product_id = OLD.id AND text_en IS NULL);
  INSERT INTO attribute_value_counts (category_id, brand_id, attribute_id, value, band, in_stock, n)
  SELECT NEW.category_id, IFNULL(NEW.brand_id, 0), attribute_id, COALESCE(option_id, number_value, bool_value), CASE WHEN NEW.price < 50000 THEN 0 WHEN NEW.price < 150000 THEN 1 WHEN NEW.price < 300000 THEN 2 WHEN NEW.price < 600000 THEN 3 ELSE 4 END, NEW.stock > 0, 1
  FROM product_attribute_values WHERE product_id = NEW.id AND text_en IS NULL AND NEW.active = 1
  ON CONFLICT (category_id, brand_id, attribute_id, value, band, in_stock) DO UPDATE SET n = n + 1;
END;

-- A product removed takes its values out first (their own rows go after it, by cascade, when it
-- can no longer be looked up).
CREATE TRIGGER products_attribute_counts_delete BEFORE DELETE ON products WHEN OLD.active = 1
BEGIN
  UPDATE attribute_value_counts SET n = n - 1
  WHERE category_id = OLD.category_id AND brand_id = IFNULL(OLD.brand_id, 0) AND band = CASE WHEN OLD.price < 50000 THEN 0 WHEN OLD.price < 150000 THEN 1 WHEN OLD.price < 300000 THEN 2 WHEN OLD.price < 600000 THEN 3 ELSE 4 END AND in_stock = (OLD.stock > 0)
    AND (attribute_id, value) IN (
      SELECT attribute_id, COALESCE(option_id, number_value, bool_value) FROM product_attribute_values WHERE product_id = OLD.id AND text_en IS NULL);
END;
