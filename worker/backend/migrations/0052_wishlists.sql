-- The wishlist (contract/wishlist.ts): the products a signed-in shopper saved, one row a product,
-- with the variant chosen on its page when one was, and the price (halalas) and availability the
-- product had when it was saved, so the list can say what changed since. A guest's list stays in
-- the browser and joins this one on sign-in.
CREATE TABLE wishlist_items (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  -- A variant removed later leaves the product saved as a whole.
  variant_id INTEGER REFERENCES product_variants(id) ON DELETE SET NULL,
  saved_at TEXT NOT NULL,
  saved_price INTEGER NOT NULL CHECK (saved_price >= 0),
  saved_in_stock INTEGER NOT NULL CHECK (saved_in_stock IN (0, 1)),
  PRIMARY KEY (user_id, product_id)
);
CREATE INDEX wishlist_items_user_saved ON wishlist_items(user_id, saved_at DESC);

-- A shopper's share link, at most one: only the SHA-256 of its random token is kept, so a leaked
-- table opens no list. A new link replaces the old; revoking deletes the row.
CREATE TABLE wishlist_shares (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
