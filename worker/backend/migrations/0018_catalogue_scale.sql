-- The catalogue at 100,000 products (docs/PERFORMANCE.md "Bench at scale").
--
-- 1. Facet counts kept, not computed: the active products counted by leaf category, brand (0 for
--    none), price band and whether in stock. A list without a search (a category page, a brand,
--    in stock, a price band) reads its total and every facet from these few hundred rows instead
--    of counting products. Triggers keep it right on every write to products, whoever makes it
--    (console, CSV import, checkout's stock moves, seeds): a product counts in one cell, and a
--    write that moves it to another (category, brand, price band, in stock or not, hidden or
--    shown) takes it out of the old cell and into the new one. The bands are PRICE_BANDS in
--    worker/backend/services/catalogue.ts (halalas: 500, 1,500, 3,000, 6,000 SAR);
--    test/integration/facets.test.ts checks the table against a count of the products.
CREATE TABLE product_facet_counts (
  category_id INTEGER NOT NULL,
  brand_id INTEGER NOT NULL,
  band INTEGER NOT NULL,
  in_stock INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (category_id, brand_id, band, in_stock)
) WITHOUT ROWID;

INSERT INTO product_facet_counts (category_id, brand_id, band, in_stock, n)
SELECT category_id, IFNULL(brand_id, 0),
  CASE WHEN price < 50000 THEN 0 WHEN price < 150000 THEN 1 WHEN price < 300000 THEN 2 WHEN price < 600000 THEN 3 ELSE 4 END,
  stock > 0, COUNT(*)
FROM products WHERE active = 1 GROUP BY 1, 2, 3, 4;

CREATE TRIGGER products_facets_insert AFTER INSERT ON products WHEN NEW.active = 1
BEGIN
  INSERT INTO product_facet_counts (category_id, brand_id, band, in_stock, n)
  VALUES (NEW.category_id, IFNULL(NEW.brand_id, 0),
    CASE WHEN NEW.price < 50000 THEN 0 WHEN NEW.price < 150000 THEN 1 WHEN NEW.price < 300000 THEN 2 WHEN NEW.price < 600000 THEN 3 ELSE 4 END,
    NEW.stock > 0, 1)
  ON CONFLICT (category_id, brand_id, band, in_stock) DO UPDATE SET n = n + 1;
END;

CREATE TRIGGER products_facets_delete AFTER DELETE ON products WHEN OLD.active = 1
BEGIN
  UPDATE product_facet_counts SET n = n - 1
  WHERE category_id = OLD.category_id AND brand_id = IFNULL(OLD.brand_id, 0)
    AND band = CASE WHEN OLD.price < 50000 THEN 0 WHEN OLD.price < 150000 THEN 1 WHEN OLD.price < 300000 THEN 2 WHEN OLD.price < 600000 THEN 3 ELSE 4 END
    AND in_stock = (OLD.stock > 0);
END;

-- Fires only when the product changes cell: a sale of one of five left does not write here.
CREATE TRIGGER products_facets_update AFTER UPDATE OF category_id, brand_id, price, stock, active ON products
WHEN OLD.active IS NOT NEW.active OR OLD.category_id IS NOT NEW.category_id OR OLD.brand_id IS NOT NEW.brand_id
  OR (OLD.stock > 0) IS NOT (NEW.stock > 0)
  OR (CASE WHEN OLD.price < 50000 THEN 0 WHEN OLD.price < 150000 THEN 1 WHEN OLD.price < 300000 THEN 2 WHEN OLD.price < 600000 THEN 3 ELSE 4 END)
    IS NOT (CASE WHEN NEW.price < 50000 THEN 0 WHEN NEW.price < 150000 THEN 1 WHEN NEW.price < 300000 THEN 2 WHEN NEW.price < 600000 THEN 3 ELSE 4 END)
BEGIN
  UPDATE product_facet_counts SET n = n - 1
  WHERE OLD.active = 1 AND category_id = OLD.category_id AND brand_id = IFNULL(OLD.brand_id, 0)
    AND band = CASE WHEN OLD.price < 50000 THEN 0 WHEN OLD.price < 150000 THEN 1 WHEN OLD.price < 300000 THEN 2 WHEN OLD.price < 600000 THEN 3 ELSE 4 END
    AND in_stock = (OLD.stock > 0);
  INSERT INTO product_facet_counts (category_id, brand_id, band, in_stock, n)
  SELECT NEW.category_id, IFNULL(NEW.brand_id, 0),
    CASE WHEN NEW.price < 50000 THEN 0 WHEN NEW.price < 150000 THEN 1 WHEN NEW.price < 300000 THEN 2 WHEN NEW.price < 600000 THEN 3 ELSE 4 END,
    NEW.stock > 0, 1
  WHERE NEW.active = 1
  ON CONFLICT (category_id, brand_id, band, in_stock) DO UPDATE SET n = n + 1;
END;

-- 2. Lists in their default order straight from an index: page 200 reads 2,400 index entries
--    instead of sorting every product; a leaf category's page the same within the category.
CREATE INDEX products_list_relevance ON products(is_featured DESC, is_new DESC, id) WHERE active = 1;
CREATE INDEX products_category_relevance ON products(category_id, is_featured DESC, is_new DESC, id) WHERE active = 1;
CREATE INDEX products_brand_relevance ON products(brand_id, is_featured DESC, is_new DESC, id) WHERE active = 1;

-- 3. Every other sort, within a category and across the catalogue, in index order too. A category
--    with subcategories is read per subcategory (each in order, cut at the page) and merged
--    (services/catalogue.ts), so no list sorts its whole category.
CREATE INDEX products_category_newest ON products(category_id, created_at, id) WHERE active = 1;
CREATE INDEX products_category_price ON products(category_id, price, id) WHERE active = 1;
CREATE INDEX products_category_name_en ON products(category_id, name_en COLLATE NOCASE, id) WHERE active = 1;
CREATE INDEX products_category_name_ar ON products(category_id, name_ar COLLATE NOCASE, id) WHERE active = 1;
CREATE INDEX products_name_en ON products(name_en COLLATE NOCASE, id) WHERE active = 1;
CREATE INDEX products_name_ar ON products(name_ar COLLATE NOCASE, id) WHERE active = 1;
