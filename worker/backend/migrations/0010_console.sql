-- The operator console: staff and their roles, the second step of a staff sign-in, the
-- audit log, the inventory ledger, order fulfilment and refunds, uploaded media and the catalogue
-- version that keys the caches. Times are ISO-8601 UTC text with milliseconds unless noted.

-- A staff member is a shop account with a role. owner > manager > support.
CREATE TABLE staff (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'support')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- A staff sign-in is the account's sign-in plus a one-time code: the code marks that account token
-- (by its hash) as a console session until expires_at (Unix seconds). Signing out of the shop
-- revokes the token, and with it the console session.
CREATE TABLE staff_sessions (
  token_hash TEXT PRIMARY KEY REFERENCES auth_tokens(token_hash) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX staff_sessions_user ON staff_sessions(user_id);

-- Who did what, with the record before and after (JSON), written in the same batch as the change.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  staff_user_id INTEGER,
  staff_email TEXT NOT NULL,
  action TEXT NOT NULL,
  entity TEXT NOT NULL,
  entity_id TEXT,
  before_json TEXT,
  after_json TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX audit_log_created ON audit_log(created_at);
CREATE INDEX audit_log_entity ON audit_log(entity, entity_id);

-- Stock adjustments by staff, a ledger beside the orders' stock_moves. `applied` works as there:
-- the changes() of the conditional stock update just before it, so a refused update (stock would
-- go negative) aborts the batch and the ledger never disagrees with the stock.
CREATE TABLE inventory_adjustments (
  id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  delta INTEGER NOT NULL CHECK (delta <> 0),
  reason TEXT NOT NULL CHECK (reason IN ('received', 'damaged', 'count', 'returned', 'other')),
  note TEXT,
  stock_after INTEGER NOT NULL,
  staff_user_id INTEGER,
  applied INTEGER NOT NULL CHECK (applied = 1),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX inventory_adjustments_product ON inventory_adjustments(product_id, created_at);

-- Fulfilment: the carrier and tracking number of a shipped order, and when each step happened.
ALTER TABLE orders ADD COLUMN carrier TEXT;
ALTER TABLE orders ADD COLUMN tracking_number TEXT;
ALTER TABLE orders ADD COLUMN shipped_at TEXT;
ALTER TABLE orders ADD COLUMN delivered_at TEXT;
ALTER TABLE orders ADD COLUMN cancelled_at TEXT;
-- Refunded so far, in halalas; a refund never takes it past the paid total.
ALTER TABLE orders ADD COLUMN refunded INTEGER NOT NULL DEFAULT 0 CHECK (refunded >= 0 AND refunded <= total);
CREATE INDEX orders_created ON orders(created_at);
CREATE INDEX orders_status ON orders(status, created_at);

-- An order's timeline: every change of state, by whom (a staff account, the shopper, the system).
CREATE TABLE order_events (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  type TEXT NOT NULL,
  -- JSON with what the step carried (carrier, tracking number, refund amount...)
  detail TEXT,
  actor TEXT NOT NULL DEFAULT 'system',
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX order_events_order ON order_events(order_id, id);

-- Refunds through the payment provider, full or partial.
CREATE TABLE refunds (
  id TEXT PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  payment_id TEXT NOT NULL REFERENCES payments(id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  reason TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  provider_ref TEXT,
  message TEXT,
  staff_user_id INTEGER,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX refunds_order ON refunds(order_id);

-- Images staff upload, kept in R2 (binding MEDIA) under `key` and served at /backend/media/uploads/{key}.
CREATE TABLE media_uploads (
  key TEXT PRIMARY KEY,
  content_type TEXT NOT NULL,
  size INTEGER NOT NULL,
  width INTEGER,
  height INTEGER,
  staff_user_id INTEGER,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Products can be hidden from the storefront without deleting them (orders keep pointing at them).
ALTER TABLE products ADD COLUMN active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1));
ALTER TABLE products ADD COLUMN low_stock_threshold INTEGER NOT NULL DEFAULT 5 CHECK (low_stock_threshold >= 0);
CREATE INDEX products_stock ON products(stock);

-- One row per named counter; `catalogue` is bumped by every catalogue change and keys the caches.
CREATE TABLE versions (
  name TEXT PRIMARY KEY,
  value INTEGER NOT NULL
);
INSERT INTO versions (name, value) VALUES ('catalogue', 1);

-- Console codes are one-time codes of their own purpose: the CHECK is widened by rebuilding the
-- table (SQLite cannot alter a CHECK). Dropping the old table empties otp_tries through its
-- cascade; those are per-network try counters of live codes, so at worst a code gets fresh tries.
PRAGMA defer_foreign_keys = true;
CREATE TABLE otp_codes_new (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('verify', 'reset', 'staff')),
  code_hash TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  expires_at INTEGER NOT NULL,
  consumed_at INTEGER,
  created_at INTEGER NOT NULL
);
INSERT INTO otp_codes_new SELECT id, user_id, purpose, code_hash, attempts, expires_at, consumed_at, created_at FROM otp_codes;
DROP TABLE otp_codes;
ALTER TABLE otp_codes_new RENAME TO otp_codes;
CREATE INDEX otp_codes_user_purpose ON otp_codes(user_id, purpose, created_at);
