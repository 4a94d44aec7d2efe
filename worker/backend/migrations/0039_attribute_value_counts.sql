-- Attribute facets kept, not computed: the active products' typed values (numbers, options,
-- yes/no) counted by leaf category, brand (0 for none), price band, in stock or not, attribute
-- and value, as product_facet_counts (migration 0018) counts products. A category's list without
-- an attribute filter sums its attribute facets from the category's cells
-- (services/catalogue/attribute-filters.ts) instead of reading every value of its products: at
-- 100,000 products that read was most of a cold list's time. Triggers keep the cells
-- right on every write to a value or to a product's category, price, stock or visibility,
-- whoever makes it; test/integration/attribute-filters.test.ts checks them against a count.
CREATE TABLE attribute_value_counts (
  category_id INTEGER NOT NULL,
  brand_id INTEGER NOT NULL,
  attribute_id INTEGER NOT NULL,
  -- The option's id, the number, or 1/0 for yes/no: the value's own column.
  value REAL NOT NULL,
  band INTEGER NOT NULL,
  in_stock INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (category_id, brand_id, attribute_id, value, band, in_stock)
) WITHOUT ROWID;

INSERT INTO attribute_value_counts (category_id, brand_id, attribute_id, value, band, in_stock, n)
SELECT p.category_id, IFNULL(p.brand_id, 0), v.attribute_id, COALESCE(v.option_id, v.number_value, v.bool_value), CASE WHEN p.price < 50000 THEN 0 WHEN p.price < 150000 THEN 1 WHEN p.price < 300000 THEN 2 WHEN p.price < 600000 THEN 3 ELSE 4 END, p.stock > 0, COUNT(*)
FROM product_attribute_values v JOIN products p ON p.id = v.product_id
WHERE p.active = 1 AND v.text_en IS NULL
GROUP BY 1, 2, 3, 4, 5, 6;

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
