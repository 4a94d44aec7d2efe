-- Shoppers are told when their return is requested, approved (with where to send the items) or
-- rejected (with the reason); staff who asked for it are told of each new paid order and return
-- request. SQLite cannot widen a CHECK in place: the outbox table is rebuilt
-- with the wider list and every row copied as it is (ids kept, so queued jobs still find theirs).
CREATE TABLE notifications_new (
  id INTEGER PRIMARY KEY,
  -- order number : kind [: reference, e.g. a refund or a return] : channel
  key TEXT NOT NULL UNIQUE,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  kind TEXT NOT NULL
    CHECK (kind IN ('placed', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded', 'return_received',
                    'return_requested', 'return_approved', 'return_rejected', 'staff_order', 'staff_return')),
  channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
  recipient TEXT NOT NULL,
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ar')),
  -- JSON with what the message says beyond the order (an amount, a reason)
  detail TEXT,
  -- queued → sending (claimed by a consumer) → sent; dead once the queue gave up on it
  status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'dead')),
  attempts INTEGER NOT NULL DEFAULT 0,
  -- rounds the cron gave a dead message (each a fresh set of the queue's retries)
  rounds INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  enqueued_at TEXT,
  claimed_at TEXT,
  sent_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
INSERT INTO notifications_new
  (id, key, order_id, kind, channel, recipient, lang, detail, status, attempts, rounds, last_error,
   enqueued_at, claimed_at, sent_at, created_at, updated_at)
SELECT id, key, order_id, kind, channel, recipient, lang, detail, status, attempts, rounds, last_error,
   enqueued_at, claimed_at, sent_at, created_at, updated_at
FROM notifications;
DROP TABLE notifications;
ALTER TABLE notifications_new RENAME TO notifications;
CREATE INDEX notifications_order ON notifications(order_id, id);
CREATE INDEX notifications_pending ON notifications(status, enqueued_at);

-- Which staff members get those alerts, and in which language (the console's, where it was set).
ALTER TABLE staff ADD COLUMN alert_orders INTEGER NOT NULL DEFAULT 0 CHECK (alert_orders IN (0, 1));
ALTER TABLE staff ADD COLUMN alert_returns INTEGER NOT NULL DEFAULT 0 CHECK (alert_returns IN (0, 1));
ALTER TABLE staff ADD COLUMN alert_lang TEXT NOT NULL DEFAULT 'ar' CHECK (alert_lang IN ('en', 'ar'));
