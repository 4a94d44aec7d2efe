-- Commerce: carts, promo codes, orders, payments. Money is integer minor units (halalas).
-- Timestamps are ISO-8601 UTC text with milliseconds, so they compare as strings.

-- A cart belongs to exactly one owner: a signed-in user or a guest id the shop minted.
CREATE TABLE carts (
  id INTEGER PRIMARY KEY,
  user_id INTEGER UNIQUE REFERENCES users(id) ON DELETE CASCADE,
  guest_id TEXT UNIQUE,
  promo_code TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CHECK ((user_id IS NULL) <> (guest_id IS NULL))
);

-- One line per product; the quantity bound (stock, max_per_order) is checked in the upsert itself.
CREATE TABLE cart_items (
  cart_id INTEGER NOT NULL REFERENCES carts(id) ON DELETE CASCADE,
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (cart_id, product_id)
);

-- discount_type 1 = percentage (value is percent), 2 = fixed amount (value in halalas).
CREATE TABLE promo_codes (
  id INTEGER PRIMARY KEY,
  code TEXT NOT NULL UNIQUE COLLATE NOCASE,
  discount_type INTEGER NOT NULL DEFAULT 1 CHECK (discount_type IN (1, 2)),
  value INTEGER NOT NULL CHECK (value > 0),
  -- Optional cap on a percentage discount, in halalas.
  max_discount INTEGER CHECK (max_discount IS NULL OR max_discount > 0),
  starts_at TEXT,
  ends_at TEXT,
  min_order INTEGER NOT NULL DEFAULT 0 CHECK (min_order >= 0),
  usage_limit INTEGER CHECK (usage_limit IS NULL OR usage_limit >= 0),
  per_user_limit INTEGER CHECK (per_user_limit IS NULL OR per_user_limit > 0),
  used_count INTEGER NOT NULL DEFAULT 0,
  active INTEGER NOT NULL DEFAULT 1,
  -- Checkout increments used_count in the same batch as the order: this makes a race past the
  -- limit abort the whole batch instead of over-redeeming.
  CHECK (usage_limit IS NULL OR used_count <= usage_limit),
  CHECK (discount_type = 2 OR value <= 100)
);

CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  -- Readable, unguessable: SQ-7K3F9QX2.
  number TEXT NOT NULL UNIQUE,
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  guest_id TEXT,
  email TEXT NOT NULL,
  phone TEXT,
  status TEXT NOT NULL DEFAULT 'pending_payment'
    CHECK (status IN ('pending_payment', 'paid', 'processing', 'shipped', 'delivered', 'payment_failed', 'cancelled')),
  subtotal INTEGER NOT NULL CHECK (subtotal >= 0),
  discount INTEGER NOT NULL DEFAULT 0 CHECK (discount >= 0),
  shipping INTEGER NOT NULL DEFAULT 0 CHECK (shipping >= 0),
  vat INTEGER NOT NULL DEFAULT 0 CHECK (vat >= 0),
  total INTEGER NOT NULL CHECK (total >= 0),
  currency TEXT NOT NULL DEFAULT 'SAR',
  promo_code TEXT,
  -- JSON {name, phone, city, district, street, building, postal_code, notes}
  address TEXT NOT NULL,
  shipping_method TEXT NOT NULL,
  payment_method TEXT NOT NULL,
  -- 1 while the order holds stock; releasing flips it to 0 in the same batch as the stock update,
  -- so a release (or re-reservation) happens exactly once however often it is attempted.
  stock_reserved INTEGER NOT NULL DEFAULT 1 CHECK (stock_reserved IN (0, 1)),
  reserved_until TEXT,
  idempotency_key TEXT NOT NULL,
  paid_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
-- Same idempotency key from the same owner is the same order (a doubled submit).
CREATE UNIQUE INDEX orders_user_idempotency ON orders(user_id, idempotency_key) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX orders_guest_idempotency ON orders(guest_id, idempotency_key) WHERE guest_id IS NOT NULL;
CREATE INDEX orders_user ON orders(user_id, created_at);
CREATE INDEX orders_reservations ON orders(stock_reserved, reserved_until);

CREATE TABLE order_items (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  product_id INTEGER NOT NULL REFERENCES products(id),
  slug TEXT NOT NULL,
  name_en TEXT NOT NULL,
  name_ar TEXT NOT NULL,
  image TEXT,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  unit_price INTEGER NOT NULL CHECK (unit_price >= 0),
  line_total INTEGER NOT NULL CHECK (line_total >= 0),
  UNIQUE (order_id, product_id)
);

-- A stock ledger written in the same batch as each conditional stock update. `applied` is the
-- changed-row count of the update just before it (changes()); the CHECK makes a refused update
-- abort the whole batch, so an order never exists without its stock, and stock never moves
-- without its order.
CREATE TABLE stock_moves (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  product_id INTEGER NOT NULL,
  -- negative: reserved; positive: released
  quantity INTEGER NOT NULL,
  applied INTEGER NOT NULL CHECK (applied = 1),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX stock_moves_order ON stock_moves(order_id);

CREATE TABLE promo_redemptions (
  id INTEGER PRIMARY KEY,
  promo_id INTEGER NOT NULL REFERENCES promo_codes(id),
  order_id INTEGER NOT NULL UNIQUE REFERENCES orders(id) ON DELETE CASCADE,
  user_id INTEGER,
  guest_id TEXT,
  email TEXT NOT NULL COLLATE NOCASE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX promo_redemptions_user ON promo_redemptions(promo_id, user_id);
CREATE INDEX promo_redemptions_email ON promo_redemptions(promo_id, email);

CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
  -- initiated: waiting for the card; challenge: 3-D Secure step; paid; failed
  status TEXT NOT NULL DEFAULT 'initiated' CHECK (status IN ('initiated', 'challenge', 'paid', 'failed')),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  currency TEXT NOT NULL DEFAULT 'SAR',
  provider_ref TEXT,
  three_ds TEXT CHECK (three_ds IS NULL OR three_ds IN ('required', 'passed', 'failed')),
  return_url TEXT NOT NULL,
  message TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX payments_order ON payments(order_id);
-- An order is never paid twice: at most one paid payment per order.
CREATE UNIQUE INDEX payments_one_paid_per_order ON payments(order_id) WHERE status = 'paid';

-- Webhook idempotency: a provider's event is applied once; a replay finds its row and stops.
CREATE TABLE payment_events (
  id INTEGER PRIMARY KEY,
  provider TEXT NOT NULL,
  event_id TEXT NOT NULL,
  payment_id TEXT,
  type TEXT NOT NULL,
  received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (provider, event_id)
);
