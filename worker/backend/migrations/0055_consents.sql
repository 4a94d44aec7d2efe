-- Consent to messages beyond an order's own news (marketing, cart reminders), kept as a log:
-- each row is one decision, with the exact wording the shopper was shown, its language, where it
-- was given and when. The current answer is the newest row per subject and purpose; withdrawing
-- adds a row, so the history proves what was agreed and when it stopped.
-- The subject is an account, or for a guest the keyed hash of the address they gave (the same
-- hash message_optouts uses), so the table names no one.
CREATE TABLE consents (
  id INTEGER PRIMARY KEY,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  recipient_hash TEXT,
  purpose TEXT NOT NULL,
  granted INTEGER NOT NULL CHECK (granted IN (0, 1)),
  wording TEXT NOT NULL,
  wording_version TEXT NOT NULL,
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ar')),
  source TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  CHECK ((user_id IS NULL) <> (recipient_hash IS NULL))
);
CREATE INDEX consents_user ON consents(user_id, purpose, id);
CREATE INDEX consents_recipient ON consents(recipient_hash, purpose, id);
