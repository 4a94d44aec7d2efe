-- The shopper's rights under the Personal Data Protection Law (services/accounts/pdpl.ts).
--
-- Each erasure of an account is recorded without personal data: the account's id (its row stays
-- as a nameless tombstone so kept tax records still point at it), when, and who asked (the
-- shopper themselves, or a staff member on their behalf, by staff account id and a reason).
CREATE TABLE erasure_log (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL,
  requested_by TEXT NOT NULL CHECK (requested_by IN ('self', 'staff')),
  staff_user_id INTEGER,
  reason TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CHECK ((requested_by = 'staff') = (staff_user_id IS NOT NULL))
);
CREATE INDEX erasure_log_user ON erasure_log(user_id);

-- Erasing an account asks the shopper to prove it is them: their password, or a one-time code
-- of its own purpose (`erase`) sent to their email or phone. SQLite cannot widen a CHECK in
-- place: the table is rebuilt with its rows and ids kept, as 0053 did, and otp_tries (emptied by
-- the drop's cascade) is set aside first and put back.
PRAGMA defer_foreign_keys = true;
CREATE TABLE otp_tries_kept AS SELECT * FROM otp_tries;
CREATE TABLE otp_codes_new (
  id INTEGER PRIMARY KEY,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  subject TEXT,
  purpose TEXT NOT NULL CHECK (purpose IN ('verify', 'reset', 'staff', 'stock_alert', 'sign_in', 'erase')),
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
