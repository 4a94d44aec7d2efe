-- Identity (DESIGN §5): one-time codes, password-reset tokens, addresses, rate-limit counters and
-- the development outbox. Codes and tokens are stored only as hashes; times are Unix seconds.

-- One-time codes: 6 digits, HMAC-hashed with the pepper, 10-minute expiry, at most 5 tries, single use.
CREATE TABLE otp_codes (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('verify', 'reset')),
  code_hash TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  expires_at INTEGER NOT NULL,
  consumed_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX otp_codes_user_purpose ON otp_codes(user_id, purpose, created_at);

-- What a reset code is exchanged for: a random token, stored as its SHA-256, single use, short-lived.
CREATE TABLE reset_tokens (
  token_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL,
  consumed_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX reset_tokens_user ON reset_tokens(user_id);

-- A signed-in user's delivery addresses; every query filters by user_id (ownership).
CREATE TABLE addresses (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  label TEXT,
  name TEXT NOT NULL,
  phone TEXT NOT NULL,
  city TEXT NOT NULL,
  district TEXT NOT NULL,
  street TEXT NOT NULL,
  building TEXT,
  postal_code TEXT,
  notes TEXT,
  is_default INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX addresses_user ON addresses(user_id);

-- Fixed-window counters, used only where the Workers rate limiting binding is not bound.
CREATE TABLE rate_limits (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL
);

-- The development outbox: what the outbox Messenger "sent". Written only when ENVIRONMENT is
-- development or test (the code is readable here on purpose, so journeys can sign up offline).
CREATE TABLE dev_outbox (
  id INTEGER PRIMARY KEY,
  recipient TEXT NOT NULL,
  channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
  purpose TEXT NOT NULL,
  code TEXT NOT NULL,
  lang TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX dev_outbox_recipient ON dev_outbox(recipient, id);
