-- Back-in-stock alerts: a shopper asks to be told, by email or SMS, when a sold-out variant (or a
-- product without options) is back. Each subscription is told once: the batch that puts stock back
-- writes its message to the shopper outbox (shopper_messages, key `stock_alert:<id>:<channel>`) and
-- stamps notified_at in the same batch (services/stock-alerts/trigger.ts).
CREATE TABLE stock_alerts (
  id INTEGER PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES products(id) ON DELETE CASCADE ON UPDATE CASCADE,
  -- the chosen variant; NULL for a product without options (its stock as a whole)
  variant_id INTEGER REFERENCES product_variants(id) ON DELETE CASCADE,
  channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
  -- an email address (lower case) or an E.164 phone number
  recipient TEXT NOT NULL,
  -- the language the shopper subscribed in: the message's language
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ar')),
  -- the signed-in account that subscribed, if any
  user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  -- the shop's own origin the shopper subscribed through (contract/server/public-origin.ts: in
  -- production always PUBLIC_ORIGIN), where the message's product link points
  site_origin TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  notified_at TEXT
);
-- One waiting subscription per recipient, variant (or product) and channel; once told, the same
-- shopper may ask again and that is a new subscription.
CREATE UNIQUE INDEX stock_alerts_waiting_once
  ON stock_alerts(product_id, COALESCE(variant_id, 0), channel, recipient) WHERE notified_at IS NULL;
CREATE INDEX stock_alerts_waiting_variant ON stock_alerts(variant_id) WHERE notified_at IS NULL;

-- A code confirming a phone that belongs to no account (an SMS alert asked for by a guest) is a
-- one-time code of its own purpose, owned by a keyed hash of the number (`subject`) instead of an
-- account. SQLite cannot relax a NOT NULL or widen a CHECK in place: the table is rebuilt with its
-- rows and ids kept. Dropping it empties otp_tries through its cascade, so those rows are set
-- aside first and put back.
PRAGMA defer_foreign_keys = true;
CREATE TABLE otp_tries_kept AS SELECT * FROM otp_tries;
CREATE TABLE otp_codes_new (
  id INTEGER PRIMARY KEY,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  subject TEXT,
  purpose TEXT NOT NULL CHECK (purpose IN ('verify', 'reset', 'staff', 'stock_alert')),
  code_hash TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  expires_at INTEGER NOT NULL,
  consumed_at INTEGER,
  created_at INTEGER NOT NULL,
  CHECK ((user_id IS NULL) <> (subject IS NULL))
);
INSERT INTO otp_codes_new (id, user_id, subject, purpose, code_hash, attempts, expires_at, consumed_at, created_at)
SELECT id, user_id, NULL, purpose, code_hash, attempts, expires_at, consumed_at, created_at FROM otp_codes;
DROP TABLE otp_codes;
ALTER TABLE otp_codes_new RENAME TO otp_codes;
CREATE INDEX otp_codes_user_purpose ON otp_codes(user_id, purpose, created_at);
CREATE INDEX otp_codes_subject_purpose ON otp_codes(subject, purpose, created_at) WHERE subject IS NOT NULL;
DELETE FROM otp_tries;
INSERT INTO otp_tries (code_id, network, attempts) SELECT code_id, network, attempts FROM otp_tries_kept;
DROP TABLE otp_tries_kept;
