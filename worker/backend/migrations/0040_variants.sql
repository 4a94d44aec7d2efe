-- Variants: the thing that is sold. A product groups its variants (one per combination of its
-- options: colour, storage...), and each variant has its own SKU, barcode, price, stock, per-order
-- maximum, images and availability. Carts, stock holds, order lines, the ledger and returns point
-- at a variant.
--
-- Every product has at least one variant: the migration gives each existing product one, with the
-- product's own id, SKU, price and stock, and a trigger gives every product inserted later its
-- first. The product row keeps what lists, facets and search read of the whole product: its price
-- is its cheapest available variant's and its stock the sum of its available variants' (kept by
-- the triggers below), so the list machinery counts a product once whatever its variants.
-- A product of one variant may still be written as a whole (console edit, CSV, bulk edit): the
-- product's price, SKU, stock and limits are copied to that variant.

CREATE TABLE product_options (
  id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE ON UPDATE CASCADE,
  -- The option's name in the product page's URL (?colour=...&storage=...).
  code TEXT NOT NULL CHECK (code GLOB '[a-z]*' AND code NOT GLOB '*[^a-z0-9_]*' AND length(code) <= 30),
  name_en TEXT NOT NULL,
  name_ar TEXT NOT NULL,
  -- How the picker shows the values: colour swatches or buttons.
  kind TEXT NOT NULL DEFAULT 'button' CHECK (kind IN ('swatch', 'button')),
  position INTEGER NOT NULL DEFAULT 0,
  UNIQUE (product_id, code)
);

CREATE TABLE product_option_values (
  id INTEGER PRIMARY KEY,
  option_id INTEGER NOT NULL REFERENCES product_options(id) ON DELETE CASCADE,
  code TEXT NOT NULL CHECK (code GLOB '[a-z0-9]*' AND code NOT GLOB '*[^a-z0-9-]*' AND length(code) <= 40),
  value_en TEXT NOT NULL,
  value_ar TEXT NOT NULL,
  -- A swatch's colour, #rrggbb.
  swatch TEXT CHECK (swatch IS NULL OR (length(swatch) = 7 AND substr(swatch, 1, 1) = '#' AND substr(swatch, 2) NOT GLOB '*[^0-9a-fA-F]*')),
  position INTEGER NOT NULL DEFAULT 0,
  UNIQUE (option_id, code)
);

CREATE TABLE product_variants (
  id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE ON UPDATE CASCADE,
  sku TEXT NOT NULL UNIQUE,
  barcode TEXT,
  price INTEGER NOT NULL CHECK (price >= 0),
  compare_at_price INTEGER CHECK (compare_at_price IS NULL OR compare_at_price >= 0),
  -- Never negative: the conditional updates that sell and this check make overselling impossible.
  stock INTEGER NOT NULL DEFAULT 0 CHECK (stock >= 0),
  max_per_order INTEGER NOT NULL DEFAULT 5 CHECK (max_per_order > 0),
  -- JSON array of image URLs; empty shows the product's.
  images TEXT NOT NULL DEFAULT '[]',
  active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
  position INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX product_variants_product ON product_variants(product_id, position, id);

-- A variant's value of each of its product's options (none for a product without options).
CREATE TABLE variant_option_values (
  variant_id INTEGER NOT NULL REFERENCES product_variants(id) ON DELETE CASCADE,
  option_id INTEGER NOT NULL REFERENCES product_options(id) ON DELETE CASCADE,
  value_id INTEGER NOT NULL REFERENCES product_option_values(id) ON DELETE CASCADE,
  PRIMARY KEY (variant_id, option_id)
);
CREATE INDEX variant_option_values_value ON variant_option_values(value_id);

-- How many variants a shopper can choose from: a card of a product of several offers a choice, not
-- an add to cart.
ALTER TABLE products ADD COLUMN variant_count INTEGER NOT NULL DEFAULT 1;

-- Each product's one variant, under the product's id (an order line's product is its variant).
INSERT INTO product_variants (id, product_id, sku, barcode, price, compare_at_price, stock, max_per_order, created_at, updated_at)
SELECT id, id, sku, barcode, price, compare_at_price, stock, max_per_order, created_at, updated_at FROM products;

-- What lists read of a product follows its variants: the cheapest available price (with that
-- variant's compare-at price) and the stock of the available ones. Written only when it changed,
-- so a sale that moves one variant writes the product once and the facet triggers run once.
CREATE TRIGGER product_variants_roll_up_insert AFTER INSERT ON product_variants BEGIN
  UPDATE products SET
    price = COALESCE((SELECT price FROM product_variants WHERE product_id = NEW.product_id AND active = 1 ORDER BY price, position, id LIMIT 1), price),
    compare_at_price = (SELECT compare_at_price FROM product_variants WHERE product_id = NEW.product_id AND active = 1 ORDER BY price, position, id LIMIT 1),
    stock = COALESCE((SELECT SUM(stock) FROM product_variants WHERE product_id = NEW.product_id AND active = 1), 0),
    variant_count = MAX(1, (SELECT COUNT(*) FROM product_variants WHERE product_id = NEW.product_id AND active = 1))
  WHERE id = NEW.product_id AND (
    variant_count IS NOT MAX(1, (SELECT COUNT(*) FROM product_variants WHERE product_id = NEW.product_id AND active = 1))
    OR stock IS NOT COALESCE((SELECT SUM(stock) FROM product_variants WHERE product_id = NEW.product_id AND active = 1), 0)
    OR price IS NOT COALESCE((SELECT price FROM product_variants WHERE product_id = NEW.product_id AND active = 1 ORDER BY price, position, id LIMIT 1), price)
    OR compare_at_price IS NOT (SELECT compare_at_price FROM product_variants WHERE product_id = NEW.product_id AND active = 1 ORDER BY price, position, id LIMIT 1)
  );
END;

CREATE TRIGGER product_variants_roll_up_update AFTER UPDATE OF price, compare_at_price, stock, active ON product_variants BEGIN
  UPDATE products SET
    price = COALESCE((SELECT price FROM product_variants WHERE product_id = NEW.product_id AND active = 1 ORDER BY price, position, id LIMIT 1), price),
    compare_at_price = (SELECT compare_at_price FROM product_variants WHERE product_id = NEW.product_id AND active = 1 ORDER BY price, position, id LIMIT 1),
    stock = COALESCE((SELECT SUM(stock) FROM product_variants WHERE product_id = NEW.product_id AND active = 1), 0),
    variant_count = MAX(1, (SELECT COUNT(*) FROM product_variants WHERE product_id = NEW.product_id AND active = 1))
  WHERE id = NEW.product_id AND (
    variant_count IS NOT MAX(1, (SELECT COUNT(*) FROM product_variants WHERE product_id = NEW.product_id AND active = 1))
    OR stock IS NOT COALESCE((SELECT SUM(stock) FROM product_variants WHERE product_id = NEW.product_id AND active = 1), 0)
    OR price IS NOT COALESCE((SELECT price FROM product_variants WHERE product_id = NEW.product_id AND active = 1 ORDER BY price, position, id LIMIT 1), price)
    OR compare_at_price IS NOT (SELECT compare_at_price FROM product_variants WHERE product_id = NEW.product_id AND active = 1 ORDER BY price, position, id LIMIT 1)
  );
END;

CREATE TRIGGER product_variants_roll_up_delete AFTER DELETE ON product_variants BEGIN
  UPDATE products SET
    price = COALESCE((SELECT price FROM product_variants WHERE product_id = OLD.product_id AND active = 1 ORDER BY price, position, id LIMIT 1), price),
    compare_at_price = (SELECT compare_at_price FROM product_variants WHERE product_id = OLD.product_id AND active = 1 ORDER BY price, position, id LIMIT 1),
    stock = COALESCE((SELECT SUM(stock) FROM product_variants WHERE product_id = OLD.product_id AND active = 1), 0),
    variant_count = MAX(1, (SELECT COUNT(*) FROM product_variants WHERE product_id = OLD.product_id AND active = 1))
  WHERE id = OLD.product_id;
END;

-- A product written after the migration gets its first variant from its own row.
CREATE TRIGGER products_first_variant AFTER INSERT ON products
WHEN NOT EXISTS (SELECT 1 FROM product_variants WHERE product_id = NEW.id) BEGIN
  INSERT INTO product_variants (product_id, sku, barcode, price, compare_at_price, stock, max_per_order)
  VALUES (NEW.id, NEW.sku, NEW.barcode, NEW.price, NEW.compare_at_price, NEW.stock, NEW.max_per_order);
END;

-- A product of one variant written as a whole: its variant follows. Only the fields this write
-- changed are copied: the roll-up above writes the product's price and stock from its variant, and
-- must not copy the product's SKU over a variant's own.
CREATE TRIGGER products_sole_variant AFTER UPDATE OF sku, barcode, price, compare_at_price, stock, max_per_order ON products
WHEN (SELECT COUNT(*) FROM product_variants WHERE product_id = NEW.id) = 1 AND (
  OLD.sku IS NOT NEW.sku OR OLD.barcode IS NOT NEW.barcode OR OLD.price IS NOT NEW.price
  OR OLD.compare_at_price IS NOT NEW.compare_at_price OR OLD.stock IS NOT NEW.stock OR OLD.max_per_order IS NOT NEW.max_per_order
) BEGIN
  UPDATE product_variants SET
    sku = CASE WHEN OLD.sku IS NOT NEW.sku THEN NEW.sku ELSE sku END,
    barcode = CASE WHEN OLD.barcode IS NOT NEW.barcode THEN NEW.barcode ELSE barcode END,
    price = CASE WHEN OLD.price IS NOT NEW.price THEN NEW.price ELSE price END,
    compare_at_price = CASE WHEN OLD.compare_at_price IS NOT NEW.compare_at_price THEN NEW.compare_at_price ELSE compare_at_price END,
    stock = CASE WHEN OLD.stock IS NOT NEW.stock THEN NEW.stock ELSE stock END,
    max_per_order = CASE WHEN OLD.max_per_order IS NOT NEW.max_per_order THEN NEW.max_per_order ELSE max_per_order END,
    updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
  WHERE product_id = NEW.id;
END;

-- Cart lines are variants. SQLite cannot change a primary key in place: the table is rebuilt and
-- every line copied onto its product's one variant.
CREATE TABLE cart_items_new (
  cart_id INTEGER NOT NULL REFERENCES carts(id) ON DELETE CASCADE,
  variant_id INTEGER NOT NULL REFERENCES product_variants(id) ON DELETE CASCADE,
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE ON UPDATE CASCADE,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (cart_id, variant_id)
);
INSERT INTO cart_items_new (cart_id, variant_id, product_id, quantity, added_at)
SELECT cart_id, product_id, product_id, quantity, added_at FROM cart_items;
DROP TABLE cart_items;
ALTER TABLE cart_items_new RENAME TO cart_items;

-- Order lines are variants too: two variants of one product are two lines, so the one-line-per-
-- product constraint goes, which again means a rebuild. Return and refund lines point at order
-- lines and would be emptied by their cascade when the old table is dropped, so they are set
-- aside first and put back as they were (ids kept everywhere). The line's name is what was sold
-- ("iPhone 16 Pro, Desert Titanium, 512 GB"), so documents name the variant; `variant_*` keeps the
-- choice on its own for lines that show it apart.
PRAGMA defer_foreign_keys = true;
CREATE TABLE return_items_kept AS SELECT * FROM return_items;
CREATE TABLE refund_items_kept AS SELECT * FROM refund_items;
DROP TABLE return_items;
DROP TABLE refund_items;

CREATE TABLE order_items_new (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  product_id INTEGER NOT NULL REFERENCES products(id),
  variant_id INTEGER NOT NULL,
  sku TEXT,
  slug TEXT NOT NULL,
  name_en TEXT NOT NULL,
  name_ar TEXT NOT NULL,
  variant_en TEXT,
  variant_ar TEXT,
  image TEXT,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  unit_price INTEGER NOT NULL CHECK (unit_price >= 0),
  line_total INTEGER NOT NULL CHECK (line_total >= 0),
  net_total INTEGER CHECK (net_total IS NULL OR net_total >= 0),
  claimed_quantity INTEGER NOT NULL DEFAULT 0 CHECK (claimed_quantity >= 0 AND claimed_quantity <= quantity),
  claimed_amount INTEGER NOT NULL DEFAULT 0 CHECK (claimed_amount >= 0),
  UNIQUE (order_id, variant_id)
);
INSERT INTO order_items_new (id, order_id, product_id, variant_id, sku, slug, name_en, name_ar, image, quantity,
  unit_price, line_total, net_total, claimed_quantity, claimed_amount)
SELECT oi.id, oi.order_id, oi.product_id, oi.product_id, p.sku, oi.slug, oi.name_en, oi.name_ar, oi.image, oi.quantity,
  oi.unit_price, oi.line_total, oi.net_total, oi.claimed_quantity, oi.claimed_amount
FROM order_items oi LEFT JOIN products p ON p.id = oi.product_id;
DROP TABLE order_items;
ALTER TABLE order_items_new RENAME TO order_items;

CREATE TABLE return_items (
  id INTEGER PRIMARY KEY,
  return_id TEXT NOT NULL REFERENCES returns(id) ON DELETE CASCADE,
  order_item_id INTEGER NOT NULL REFERENCES order_items(id) ON DELETE CASCADE,
  product_id INTEGER NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  reason TEXT NOT NULL CHECK (reason IN ('damaged', 'wrong_item', 'not_as_described', 'changed_mind', 'other')),
  note TEXT,
  amount INTEGER NOT NULL CHECK (amount >= 0),
  within INTEGER NOT NULL CHECK (within = 1)
);
INSERT INTO return_items SELECT * FROM return_items_kept;
CREATE INDEX return_items_return ON return_items(return_id);
CREATE INDEX return_items_order_item ON return_items(order_item_id);

CREATE TABLE refund_items (
  id INTEGER PRIMARY KEY,
  refund_id TEXT NOT NULL REFERENCES refunds(id) ON DELETE CASCADE,
  order_item_id INTEGER NOT NULL REFERENCES order_items(id) ON DELETE CASCADE,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  applied INTEGER NOT NULL CHECK (applied = 1)
);
INSERT INTO refund_items SELECT * FROM refund_items_kept;
CREATE INDEX refund_items_refund ON refund_items(refund_id);
DROP TABLE return_items_kept;
DROP TABLE refund_items_kept;

-- The ledger's rows name the variant whose stock moved (the product's one variant before).
ALTER TABLE stock_moves ADD COLUMN variant_id INTEGER;
UPDATE stock_moves SET variant_id = product_id WHERE product_id <> 0;
ALTER TABLE inventory_adjustments ADD COLUMN variant_id INTEGER REFERENCES product_variants(id) ON DELETE CASCADE;
UPDATE inventory_adjustments SET variant_id = product_id;
CREATE INDEX inventory_adjustments_variant ON inventory_adjustments(variant_id, created_at);
