-- Search results kept per query (docs/PERFORMANCE.md "Search at scale").
--
-- A word that matches a sixth of a large catalogue ("phone", "samsung", "charger") costs a search
-- 100-150 ms at 100,000 products: BM25 ranks every match, the matches are merged, joined, sorted
-- for the page and counted for the facets, at 1-2 us per match per step. None of that can stop
-- at the page's dozen. So the ranked matches of such a query are kept, in the order the page is
-- read in, and its facet cells are kept with them: a page is then an index range read cut at its
-- end, and its total and facets a sum over a few hundred cells, as for a list without a search
-- (product_facet_counts, migration 0018). services/search-kept.ts writes and reads them.
--
-- What keeps them right:
-- - A query is its two match expressions (names with synonyms, descriptions as typed), so a
--   synonym edit makes new expressions and never meets old results.
-- - What a search finds a product by, or its BM25 statistics (its names, descriptions, SKU, model,
--   category and brand, whose names the index holds; a product added, removed or shown again; the
--   index's brand and category text after a rename) moves the `search` version: the triggers
--   below, and the console's re-index (services/console-content.ts). Copies kept under another
--   version are not read.
-- - What only moves a product within the order or the cells (in stock or not, its price band,
--   featured, hidden) is kept current in place by the trigger below, as product_facet_counts is:
--   its rows and cells in every kept query it is in move to their new place (or go, when hidden).
--   So a sale, a price edit, featuring or hiding does not throw away a single kept search.
-- - Filters and the price bounds read the live product (product_ranks) when the page is cut.
INSERT INTO versions (name, value) VALUES ('search', 1);

-- One row per kept query. `version` is the `search` version it was ranked under (0: a stale copy
-- cleared, the query remembered as worth keeping again).
CREATE TABLE search_kept (
  id INTEGER PRIMARY KEY,
  names TEXT NOT NULL,
  details TEXT NOT NULL,
  version INTEGER NOT NULL,
  UNIQUE (names, details)
);

-- Its matches, shown ones only, in the relevance order of services/catalogue.ts (ORDER_BY): found
-- by name, brand or category first, then in stock, then the best BM25 score, featured, id.
CREATE TABLE search_kept_rows (
  kept_id INTEGER NOT NULL,
  named INTEGER NOT NULL,
  available INTEGER NOT NULL,
  score REAL NOT NULL,
  featured INTEGER NOT NULL,
  product_id INTEGER NOT NULL,
  brand_id INTEGER NOT NULL,
  PRIMARY KEY (kept_id, named DESC, available DESC, score, featured DESC, product_id)
) WITHOUT ROWID;
-- A brand's matches in the same order: a search with a brand filter reads just its own, not every
-- match to find a few (a brand rarely named in the query's matches).
CREATE INDEX search_kept_rows_brand ON search_kept_rows(kept_id, brand_id, named DESC, available DESC, score, featured DESC, product_id);
-- Which kept queries a product is in: the stock trigger moves its rows and cells through it.
CREATE INDEX search_kept_rows_product ON search_kept_rows(product_id);

-- Its matches counted by the cells of product_facet_counts: leaf category, brand (0 for none),
-- price band and in stock.
CREATE TABLE search_kept_cells (
  kept_id INTEGER NOT NULL,
  category_id INTEGER NOT NULL,
  brand_id INTEGER NOT NULL,
  band INTEGER NOT NULL,
  in_stock INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (kept_id, category_id, brand_id, band, in_stock)
) WITHOUT ROWID;

CREATE TRIGGER products_search_version_insert AFTER INSERT ON products
BEGIN
  UPDATE versions SET value = value + 1 WHERE name = 'search';
END;

CREATE TRIGGER products_search_version_delete AFTER DELETE ON products
BEGIN
  UPDATE versions SET value = value + 1 WHERE name = 'search';
END;

-- What a product's search text holds (names, descriptions, SKU, model, and in the index its brand's
-- and category's names), or a product shown again (its place in every kept query is unknown).
CREATE TRIGGER products_search_version_update AFTER UPDATE OF id, sku, model, category_id, brand_id, name_en, name_ar,
  description_en, description_ar, active ON products
WHEN OLD.id IS NOT NEW.id OR OLD.sku IS NOT NEW.sku OR OLD.model IS NOT NEW.model
  OR OLD.category_id IS NOT NEW.category_id OR OLD.brand_id IS NOT NEW.brand_id
  OR OLD.name_en IS NOT NEW.name_en OR OLD.name_ar IS NOT NEW.name_ar
  OR OLD.description_en IS NOT NEW.description_en OR OLD.description_ar IS NOT NEW.description_ar
  OR (OLD.active = 0 AND NEW.active = 1)
BEGIN
  UPDATE versions SET value = value + 1 WHERE name = 'search';
END;

-- What moves a product inside the kept queries it is in, without changing any BM25 score: in stock
-- or not, its price band, featured or not, hidden. It leaves its old cell for its new one (none
-- when hidden) and its rows take their new place (none when hidden). Fires only on such a change:
-- a sale of one of five left does not write here.
CREATE TRIGGER products_search_kept_place AFTER UPDATE OF stock, price, is_featured, active ON products
WHEN (OLD.stock > 0) IS NOT (NEW.stock > 0)
  OR (CASE WHEN OLD.price < 50000 THEN 0 WHEN OLD.price < 150000 THEN 1 WHEN OLD.price < 300000 THEN 2 WHEN OLD.price < 600000 THEN 3 ELSE 4 END)
    IS NOT (CASE WHEN NEW.price < 50000 THEN 0 WHEN NEW.price < 150000 THEN 1 WHEN NEW.price < 300000 THEN 2 WHEN NEW.price < 600000 THEN 3 ELSE 4 END)
  OR OLD.is_featured IS NOT NEW.is_featured
  OR (OLD.active = 1 AND NEW.active = 0)
BEGIN
  UPDATE search_kept_cells SET n = n - 1
  WHERE kept_id IN (SELECT kept_id FROM search_kept_rows WHERE product_id = OLD.id)
    AND category_id = OLD.category_id AND brand_id = IFNULL(OLD.brand_id, 0)
    AND band = CASE WHEN OLD.price < 50000 THEN 0 WHEN OLD.price < 150000 THEN 1 WHEN OLD.price < 300000 THEN 2 WHEN OLD.price < 600000 THEN 3 ELSE 4 END
    AND in_stock = (OLD.stock > 0);
  INSERT INTO search_kept_cells (kept_id, category_id, brand_id, band, in_stock, n)
  SELECT kept_id, NEW.category_id, IFNULL(NEW.brand_id, 0),
    CASE WHEN NEW.price < 50000 THEN 0 WHEN NEW.price < 150000 THEN 1 WHEN NEW.price < 300000 THEN 2 WHEN NEW.price < 600000 THEN 3 ELSE 4 END,
    NEW.stock > 0, 1
  FROM search_kept_rows WHERE product_id = NEW.id AND NEW.active = 1
  ON CONFLICT (kept_id, category_id, brand_id, band, in_stock) DO UPDATE SET n = n + 1;
  DELETE FROM search_kept_rows WHERE product_id = NEW.id AND NEW.active = 0;
  UPDATE search_kept_rows SET available = (NEW.stock > 0), featured = NEW.is_featured
  WHERE product_id = NEW.id AND (available IS NOT (NEW.stock > 0) OR featured IS NOT NEW.is_featured);
END;
