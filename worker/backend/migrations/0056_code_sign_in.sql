-- Signing in with a one-time code (services/accounts/code-sign-in.ts): a code of its own purpose,
-- `sign_in`, owned by an account or, for a number or address with no account yet, by its keyed
-- hash (`subject`). SQLite cannot widen a CHECK in place: the table is rebuilt with its rows and
-- ids kept. Dropping it empties otp_tries through its cascade, so those rows are set aside first
-- and put back.
PRAGMA defer_foreign_keys = true;
CREATE TABLE otp_tries_kept AS SELECT * FROM otp_tries;
CREATE TABLE otp_codes_new (
  id INTEGER PRIMARY KEY,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  subject TEXT,
  purpose TEXT NOT NULL CHECK (purpose IN ('verify', 'reset', 'staff', 'stock_alert', 'sign_in')),
  code_hash TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  expires_at INTEGER NOT NULL,
  consumed_at INTEGER,
  created_at INTEGER NOT NULL,
  CHECK ((user_id IS NULL) <> (subject IS NULL))
);
INSERT INTO otp_codes_new (id, user_id, subject, purpose, code_hash, attempts, expires_at, consumed_at, created_at)
SELECT id, user_id, subject, purpose, code_hash, attempts, expires_at, consumed_at, created_at FROM otp_codes;
DROP TABLE otp_codes;
ALTER TABLE otp_codes_new RENAME TO otp_codes;
CREATE INDEX otp_codes_user_purpose ON otp_codes(user_id, purpose, created_at);
CREATE INDEX otp_codes_subject_purpose ON otp_codes(subject, purpose, created_at) WHERE subject IS NOT NULL;
DELETE FROM otp_tries;
INSERT INTO otp_tries (code_id, network, attempts) SELECT code_id, network, attempts FROM otp_tries_kept;
DROP TABLE otp_tries_kept;
