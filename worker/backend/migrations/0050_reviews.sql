-- Product reviews by verified buyers: one per product per account (editable), with up to four
-- photos in R2, shoppers' "helpful" votes and reports, and the store's reply. A review is
-- pending until moderated (or published at once when the store's rule says so); only published
-- reviews count in a product's rating.
CREATE TABLE reviews (
  id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  -- the delivered order that made the author a verified buyer of the product
  order_id INTEGER REFERENCES orders(id) ON DELETE SET NULL,
  rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  -- the language the text is written in (detected or chosen), for the language filter
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ar')),
  -- the name shown with the review, as the author chose it when writing
  author_name TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'published', 'rejected')),
  -- why staff rejected it (told to the author)
  reject_reason TEXT,
  -- what the screening rule found (links, phone numbers, emails), JSON array; null when clean
  flags TEXT,
  helpful_count INTEGER NOT NULL DEFAULT 0,
  report_count INTEGER NOT NULL DEFAULT 0,
  reply_text TEXT,
  reply_lang TEXT CHECK (reply_lang IN ('en', 'ar')),
  replied_at TEXT,
  replied_by TEXT,
  moderated_at TEXT,
  moderated_by TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (product_id, user_id)
);
CREATE INDEX reviews_product_status ON reviews(product_id, status, created_at);
CREATE INDEX reviews_queue ON reviews(status, created_at);
CREATE INDEX reviews_user ON reviews(user_id);

CREATE TABLE review_photos (
  id INTEGER PRIMARY KEY,
  review_id INTEGER NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  -- the R2 key in MEDIA (content hash, as console uploads)
  key TEXT NOT NULL,
  content_type TEXT NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  UNIQUE (review_id, key)
);

-- One vote per voter per review: an account, or a guest id for signed-out shoppers.
CREATE TABLE review_votes (
  review_id INTEGER NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  voter TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (review_id, voter)
);

CREATE TABLE review_reports (
  review_id INTEGER NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  reporter TEXT NOT NULL,
  reason TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  -- set when staff dealt with the report (kept the review or removed it)
  resolved_at TEXT,
  PRIMARY KEY (review_id, reporter)
);

-- The published rating of each product, kept with every moderation step so list pages read
-- it with the product (cards show the stars and the count) without aggregating per request.
ALTER TABLE products ADD COLUMN rating_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE products ADD COLUMN rating_sum INTEGER NOT NULL DEFAULT 0;
