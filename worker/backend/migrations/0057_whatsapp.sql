-- WhatsApp as a channel for a shopper's phone messages (services/messages/whatsapp.ts).
--
-- The shopper's choice: how order messages reach their phone. 'sms' (the default) or 'whatsapp'
-- (needs a phone on the account). Columns are added, never a table rebuilt: no row is touched.
ALTER TABLE users ADD COLUMN message_channel TEXT NOT NULL DEFAULT 'sms'
  CHECK (message_channel IN ('sms', 'whatsapp'));

-- Every opt-in and withdrawal, kept as given: WhatsApp's policy asks the business to be able to
-- show when and how a person agreed to be messaged there (the wording shown, in its language).
CREATE TABLE message_channel_consents (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  channel TEXT NOT NULL CHECK (channel IN ('sms', 'whatsapp')),
  -- the number the choice was made for (the account's phone then)
  phone TEXT,
  -- the sentence the shopper saw beside the choice, and its language
  wording TEXT NOT NULL,
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ar')),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX message_channel_consents_user ON message_channel_consents(user_id, id);

-- The phone row of an order message (channel 'sms') says how it goes: `via` 'whatsapp' when the
-- account chose WhatsApp at the event; 'sms' once it fell back (an error answer, a network failure,
-- or a failed status from the webhook); NULL is plain SMS (and every email). The key is unchanged,
-- so an event still owes one phone message, whichever way it goes.
ALTER TABLE notifications ADD COLUMN via TEXT CHECK (via IN ('sms', 'whatsapp'));
-- WhatsApp's message id (wamid.…) and its last status: accepted, sent, delivered, read, failed.
ALTER TABLE notifications ADD COLUMN provider_id TEXT;
ALTER TABLE notifications ADD COLUMN provider_status TEXT;
-- WhatsApp's error (code and title) when it failed; the row then went by SMS.
ALTER TABLE notifications ADD COLUMN provider_error TEXT;
ALTER TABLE notifications ADD COLUMN fell_back_at TEXT;
CREATE INDEX notifications_provider ON notifications(provider_id) WHERE provider_id IS NOT NULL;

-- Each status WhatsApp reported, by message id, as it came (the webhook may run before the send's
-- answer is recorded, or report read before delivered): the row's status is read from here.
CREATE TABLE whatsapp_statuses (
  id INTEGER PRIMARY KEY,
  wamid TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('sent', 'delivered', 'read', 'failed')),
  -- WhatsApp's Unix time of the status
  at INTEGER NOT NULL,
  recipient TEXT,
  -- JSON [{ code, title }] of a failed status
  errors TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (wamid, status)
);

-- A choice of WhatsApp was made for the phone the account had then: a new number never opted in,
-- so changing the phone (by any path: the profile, a code sign-in, staff) puts it back to SMS
-- until the shopper chooses WhatsApp again for the new number.
CREATE TRIGGER users_phone_changed_channel AFTER UPDATE OF phone ON users
WHEN NEW.message_channel = 'whatsapp' AND OLD.phone IS NOT NEW.phone
BEGIN
  UPDATE users SET message_channel = 'sms' WHERE id = NEW.id;
END;
