-- Search at 100,000 products (docs/PERFORMANCE.md "Search at scale").
--
-- A search ranks every product it matches (BM25 has no shortcut to a page's dozen), and before it
-- ranks one it reads whether the product is shown, its stock and whether it is featured (the
-- order), and for the filters and facets its category, brand and price. Read from `products`,
-- each match walks a wide row (names, model, images, timestamps); a common word matches 20,000
-- to 50,000 products in both indexes, and those reads were a third of the search. This table
-- holds just those columns, one row per product with its id, about 20 bytes a row: 100,000
-- products fit in under 500 pages, so the matches' lookups stay in SQLite's page cache.
--
-- Triggers keep it equal to `products` on every write, whoever makes it (console, CSV import,
-- checkout's stock moves, seeds); test/integration/facet-counts.test.ts compares it with
-- `products` after each of those, and test/integration/search-order.test.ts after raw writes.
CREATE TABLE product_ranks (
  id INTEGER PRIMARY KEY,
  active INTEGER NOT NULL,
  category_id INTEGER NOT NULL,
  brand_id INTEGER,
  price INTEGER NOT NULL,
  stock INTEGER NOT NULL,
  is_featured INTEGER NOT NULL
);

INSERT INTO product_ranks (id, active, category_id, brand_id, price, stock, is_featured)
SELECT id, active, category_id, brand_id, price, stock, is_featured FROM products;

-- OR REPLACE: an INSERT OR REPLACE into products removes the old row without firing the delete
-- trigger (recursive triggers are off), so the new row has to take the old one's place here.
CREATE TRIGGER products_ranks_insert AFTER INSERT ON products
BEGIN
  INSERT OR REPLACE INTO product_ranks (id, active, category_id, brand_id, price, stock, is_featured)
  VALUES (NEW.id, NEW.active, NEW.category_id, NEW.brand_id, NEW.price, NEW.stock, NEW.is_featured);
END;

CREATE TRIGGER products_ranks_delete AFTER DELETE ON products
BEGIN
  DELETE FROM product_ranks WHERE id = OLD.id;
END;

-- Only a write to one of these columns: a description or image edit does not write here.
CREATE TRIGGER products_ranks_update AFTER UPDATE OF id, active, category_id, brand_id, price, stock, is_featured ON products
BEGIN
  DELETE FROM product_ranks WHERE id = OLD.id AND OLD.id IS NOT NEW.id;
  INSERT OR REPLACE INTO product_ranks (id, active, category_id, brand_id, price, stock, is_featured)
  VALUES (NEW.id, NEW.active, NEW.category_id, NEW.brand_id, NEW.price, NEW.stock, NEW.is_featured);
END;
