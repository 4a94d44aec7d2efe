-- Messages to shoppers that are not an order's news: review invitations and decisions, answers
-- to their questions, back-in-stock alerts. The same transactional outbox as `notifications`
-- (a row per message and channel, written in the batch of the event it announces; the key makes
-- a repeated event a no-op, so each message is sent once), with a time it falls due, so a
-- message owed some days later waits in D1 and the cron enqueues it then.
CREATE TABLE shopper_messages (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL UNIQUE,
  topic TEXT NOT NULL,
  channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
  recipient TEXT NOT NULL,
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ar')),
  -- JSON object of the template's variables
  params TEXT NOT NULL DEFAULT '{}',
  due_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  -- queued → sending (claimed) → sent; skipped when the recipient opted out before it was due;
  -- cancelled when what it announced no longer holds; dead once the queue gave up on it
  status TEXT NOT NULL DEFAULT 'queued'
    CHECK (status IN ('queued', 'sending', 'sent', 'skipped', 'cancelled', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  enqueued_at TEXT,
  claimed_at TEXT,
  sent_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX shopper_messages_due ON shopper_messages(status, due_at);
CREATE INDEX shopper_messages_topic ON shopper_messages(topic, created_at);

-- Who asked not to get a topic again, by a keyed hash of the address (the table names no one).
CREATE TABLE message_optouts (
  recipient_hash TEXT NOT NULL,
  topic TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (recipient_hash, topic)
);
