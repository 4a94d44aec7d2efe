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

-- A faceted list (a category and a brand, in the default order): each subcategory's products of
-- the brand read in order, rather than the brand's products in order until twelve of the
-- subcategory turn up (at 100,000 products, 20-50 ms for Apple in the Phones category's own arm,
-- which holds no product: every Apple product read; 0.2 ms with this index).
CREATE INDEX products_category_brand_relevance
  ON products(category_id, brand_id, is_featured DESC, is_new DESC, id) WHERE active = 1;
