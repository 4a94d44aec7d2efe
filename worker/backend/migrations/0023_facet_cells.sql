-- Lists sum their totals and facets from the kept counts' cells held in memory
-- (services/catalogue.ts, `cellsCache`), and read this version with every page to know the held
-- cells are current: every write to a cell moves it, whatever made the write.
INSERT INTO versions (name, value) VALUES ('facets', 1);

CREATE TRIGGER product_facet_counts_inserted AFTER INSERT ON product_facet_counts
BEGIN
  UPDATE versions SET value = value + 1 WHERE name = 'facets';
END;

CREATE TRIGGER product_facet_counts_updated AFTER UPDATE ON product_facet_counts
BEGIN
  UPDATE versions SET value = value + 1 WHERE name = 'facets';
END;

CREATE TRIGGER product_facet_counts_deleted AFTER DELETE ON product_facet_counts
BEGIN
  UPDATE versions SET value = value + 1 WHERE name = 'facets';
END;

-- The lists' arms (a subcategory read in its sort's index order up to the page's end) carry the
-- price in the index, so a price band filter is checked in the index instead of in each product's
-- row: at 100,000 products, page 1 of a category or faceted list in a band read hundreds to
-- thousands of rows to find twelve (p95 13 ms, up to 50 ms, in `node:sqlite`); 4 ms at most now.
-- Stock is left out: it changes with every sale, and most products are in stock.
--
-- A faceted list (a category and a brand, in the default order) reads each subcategory's products
-- of the brand in order, rather than the brand's products in order until twelve of the
-- subcategory turn up (20-50 ms for Apple in the Phones category's own arm, which holds no
-- product: every Apple product read; 0.2 ms with this index).
CREATE INDEX products_category_brand_relevance
  ON products(category_id, brand_id, is_featured DESC, is_new DESC, id, price) WHERE active = 1;

DROP INDEX products_category_relevance;
CREATE INDEX products_category_relevance
  ON products(category_id, is_featured DESC, is_new DESC, id, price) WHERE active = 1;
DROP INDEX products_category_newest;
CREATE INDEX products_category_newest ON products(category_id, created_at, id, price) WHERE active = 1;
DROP INDEX products_category_name_en;
CREATE INDEX products_category_name_en ON products(category_id, name_en COLLATE NOCASE, id, price) WHERE active = 1;
DROP INDEX products_category_name_ar;
CREATE INDEX products_category_name_ar ON products(category_id, name_ar COLLATE NOCASE, id, price) WHERE active = 1;
