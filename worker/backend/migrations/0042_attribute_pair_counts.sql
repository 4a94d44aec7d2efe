-- A category list filtered by one attribute value ("laptops with 16 GB of RAM", "65-inch TVs")
-- counts every other attribute's values among the products holding that value. Reading each of
-- those products' values was most of such a list's time at 100,000 products (30 ms of D1 for
-- 4,600 phones of one screen size). These counts are kept instead: for every pair of values of
-- two different attributes, how many shown products of a leaf category hold both, in both
-- directions (the filtered value, then the counted one). Triggers keep them right on every write
-- to a value or to a product's category or visibility, as migration 0039's cells are kept;
-- test/integration/attribute-filters.test.ts checks them against a count.
CREATE TABLE attribute_pair_counts (
  attribute_id INTEGER NOT NULL,
  -- The option's id, the number, or 1/0 for yes/no, as attribute_value_counts holds a value.
  value REAL NOT NULL,
  category_id INTEGER NOT NULL,
  other_id INTEGER NOT NULL,
  other_value REAL NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (attribute_id, value, category_id, other_id, other_value)
) WITHOUT ROWID;

INSERT INTO attribute_pair_counts (attribute_id, value, category_id, other_id, other_value, n)
SELECT a.attribute_id, COALESCE(a.option_id, a.number_value, a.bool_value), p.category_id,
  b.attribute_id, COALESCE(b.option_id, b.number_value, b.bool_value), COUNT(*)
FROM products p
  JOIN product_attribute_values a ON a.product_id = p.id AND a.text_en IS NULL
  JOIN product_attribute_values b ON b.product_id = p.id AND b.text_en IS NULL AND b.attribute_id <> a.attribute_id
WHERE p.active = 1
GROUP BY 1, 2, 3, 4, 5;

-- A filtered value's own cells (migration 0039) answer such a list's total and its other facets.
CREATE INDEX attribute_value_counts_value ON attribute_value_counts(attribute_id, value);

CREATE TRIGGER attribute_pairs_insert AFTER INSERT ON product_attribute_values WHEN NEW.text_en IS NULL
BEGIN
  INSERT INTO attribute_pair_counts (attribute_id, value, category_id, other_id, other_value, n)
  SELECT NEW.attribute_id, COALESCE(NEW.option_id, NEW.number_value, NEW.bool_value), p.category_id,
    o.attribute_id, COALESCE(o.option_id, o.number_value, o.bool_value), 1
  FROM products p JOIN product_attribute_values o
    ON o.product_id = p.id AND o.text_en IS NULL AND o.attribute_id <> NEW.attribute_id
  WHERE p.id = NEW.product_id AND p.active = 1
  UNION ALL
  SELECT o.attribute_id, COALESCE(o.option_id, o.number_value, o.bool_value), p.category_id,
    NEW.attribute_id, COALESCE(NEW.option_id, NEW.number_value, NEW.bool_value), 1
  FROM products p JOIN product_attribute_values o
    ON o.product_id = p.id AND o.text_en IS NULL AND o.attribute_id <> NEW.attribute_id
  WHERE p.id = NEW.product_id AND p.active = 1
  ON CONFLICT (attribute_id, value, category_id, other_id, other_value) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER attribute_pairs_delete AFTER DELETE ON product_attribute_values WHEN OLD.text_en IS NULL
BEGIN
  UPDATE attribute_pair_counts SET n = n - 1
  WHERE (attribute_id, value, category_id, other_id, other_value) IN (
    SELECT OLD.attribute_id, COALESCE(OLD.option_id, OLD.number_value, OLD.bool_value), p.category_id,
      o.attribute_id, COALESCE(o.option_id, o.number_value, o.bool_value)
    FROM products p JOIN product_attribute_values o
      ON o.product_id = p.id AND o.text_en IS NULL AND o.attribute_id <> OLD.attribute_id
    WHERE p.id = OLD.product_id AND p.active = 1
    UNION ALL
    SELECT o.attribute_id, COALESCE(o.option_id, o.number_value, o.bool_value), p.category_id,
      OLD.attribute_id, COALESCE(OLD.option_id, OLD.number_value, OLD.bool_value)
    FROM products p JOIN product_attribute_values o
      ON o.product_id = p.id AND o.text_en IS NULL AND o.attribute_id <> OLD.attribute_id
    WHERE p.id = OLD.product_id AND p.active = 1);
END;

CREATE TRIGGER attribute_pairs_update AFTER UPDATE OF number_value, option_id, bool_value ON product_attribute_values
WHEN OLD.text_en IS NULL AND NEW.text_en IS NULL AND COALESCE(OLD.option_id, OLD.number_value, OLD.bool_value) IS NOT COALESCE(NEW.option_id, NEW.number_value, NEW.bool_value)
BEGIN
  UPDATE attribute_pair_counts SET n = n - 1
  WHERE (attribute_id, value, category_id, other_id, other_value) IN (
    SELECT OLD.attribute_id, COALESCE(OLD.option_id, OLD.number_value, OLD.bool_value), p.category_id,
      o.attribute_id, COALESCE(o.option_id, o.number_value, o.bool_value)
    FROM products p JOIN product_attribute_values o
      ON o.product_id = p.id AND o.text_en IS NULL AND o.attribute_id <> OLD.attribute_id
    WHERE p.id = OLD.product_id AND p.active = 1
    UNION ALL
    SELECT o.attribute_id, COALESCE(o.option_id, o.number_value, o.bool_value), p.category_id,
      OLD.attribute_id, COALESCE(OLD.option_id, OLD.number_value, OLD.bool_value)
    FROM products p JOIN product_attribute_values o
      ON o.product_id = p.id AND o.text_en IS NULL AND o.attribute_id <> OLD.attribute_id
    WHERE p.id = OLD.product_id AND p.active = 1);
  INSERT INTO attribute_pair_counts (attribute_id, value, category_id, other_id, other_value, n)
  SELECT NEW.attribute_id, COALESCE(NEW.option_id, NEW.number_value, NEW.bool_value), p.category_id,
    o.attribute_id, COALESCE(o.option_id, o.number_value, o.bool_value), 1
  FROM products p JOIN product_attribute_values o
    ON o.product_id = p.id AND o.text_en IS NULL AND o.attribute_id <> NEW.attribute_id
  WHERE p.id = NEW.product_id AND p.active = 1
  UNION ALL
  SELECT o.attribute_id, COALESCE(o.option_id, o.number_value, o.bool_value), p.category_id,
    NEW.attribute_id, COALESCE(NEW.option_id, NEW.number_value, NEW.bool_value), 1
  FROM products p JOIN product_attribute_values o
    ON o.product_id = p.id AND o.text_en IS NULL AND o.attribute_id <> NEW.attribute_id
  WHERE p.id = NEW.product_id AND p.active = 1
  ON CONFLICT (attribute_id, value, category_id, other_id, other_value) DO UPDATE SET n = n + 1;
END;

-- A product that changes category, or is hidden or shown, moves all its pairs; a price or stock
-- change writes nothing here. The product's pairs are its values joined with themselves.
CREATE TRIGGER products_attribute_pairs_update AFTER UPDATE OF category_id, active ON products
WHEN OLD.active IS NOT NEW.active OR OLD.category_id IS NOT NEW.category_id
BEGIN
  UPDATE attribute_pair_counts SET n = n - 1
  WHERE OLD.active = 1 AND (attribute_id, value, category_id, other_id, other_value) IN (
    SELECT a.attribute_id, COALESCE(a.option_id, a.number_value, a.bool_value), OLD.category_id,
      b.attribute_id, COALESCE(b.option_id, b.number_value, b.bool_value)
    FROM product_attribute_values a JOIN product_attribute_values b
      ON b.product_id = a.product_id AND b.text_en IS NULL AND b.attribute_id <> a.attribute_id
    WHERE a.product_id = OLD.id AND a.text_en IS NULL);
  INSERT INTO attribute_pair_counts (attribute_id, value, category_id, other_id, other_value, n)
  SELECT a.attribute_id, COALESCE(a.option_id, a.number_value, a.bool_value), NEW.category_id,
    b.attribute_id, COALESCE(b.option_id, b.number_value, b.bool_value), 1
  FROM product_attribute_values a JOIN product_attribute_values b
    ON b.product_id = a.product_id AND b.text_en IS NULL AND b.attribute_id <> a.attribute_id
  WHERE a.product_id = NEW.id AND a.text_en IS NULL AND NEW.active = 1
  ON CONFLICT (attribute_id, value, category_id, other_id, other_value) DO UPDATE SET n = n + 1;
END;

-- A product removed takes its pairs out first (its values go after it, by cascade, when it can no
-- longer be looked up, so their own trigger finds nothing to take).
CREATE TRIGGER products_attribute_pairs_delete BEFORE DELETE ON products WHEN OLD.active = 1
BEGIN
  UPDATE attribute_pair_counts SET n = n - 1
  WHERE (attribute_id, value, category_id, other_id, other_value) IN (
    SELECT a.attribute_id, COALESCE(a.option_id, a.number_value, a.bool_value), OLD.category_id,
      b.attribute_id, COALESCE(b.option_id, b.number_value, b.bool_value)
    FROM product_attribute_values a JOIN product_attribute_values b
      ON b.product_id = a.product_id AND b.text_en IS NULL AND b.attribute_id <> a.attribute_id
    WHERE a.product_id = OLD.id AND a.text_en IS NULL);
END;
