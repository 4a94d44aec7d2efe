-- A list whose price bounds are no band's (a shopper's own minimum or maximum) sums the kept
-- counts' cells of the bands wholly inside the bounds, and groups the products of the one or two
-- bands the bounds cut into cells alike (services/catalogue.ts, `priceCut`). This index holds a
-- cell's columns in price order, so that grouping reads the index alone: at 100,000 products,
-- 11 ms for the 6,900 products between SAR 1,000 and SAR 1,500 instead of 22 ms through the
-- products' rows (`sqlite3`), where the whole list's facets used to read every product (350 ms).
CREATE INDEX products_price_cells ON products(price, category_id, brand_id, stock) WHERE active = 1;
