-- Account security. Times are Unix seconds.

-- M4: a new email waits here until a code sent to it is entered; until then the current email
-- stays the login and reset identifier.
ALTER TABLE users ADD COLUMN pending_email TEXT COLLATE NOCASE;
CREATE INDEX users_pending_email ON users(pending_email) WHERE pending_email IS NOT NULL;

-- L3: tries on a one-time code are counted per network (an HMAC of the address, never the
-- address), so a stranger spending a code's tries does not spend the owner's. The old
-- otp_codes.attempts column is no longer written.
CREATE TABLE otp_tries (
  code_id INTEGER NOT NULL REFERENCES otp_codes(id) ON DELETE CASCADE,
  network TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  PRIMARY KEY (code_id, network)
);

-- L3/L4: per-account counters over a window: failed code checks a day (the guessing budget across
-- all networks) and recent failed logins (the progressive delay). The key is a SHA-256 of what is
-- counted, so the table names no email or phone.
CREATE TABLE account_counters (
  key TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL
);

-- L3: account notices (e.g. "someone tried to register with your details") are throttled per
-- account and kind.
CREATE TABLE account_notices (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  sent_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, kind)
);
