-- Order messages. Every message an order event owes its shopper is first a row here,
-- written in the same D1 batch as the event (a transactional outbox), then sent through the
-- NOTIFICATIONS queue; the consumer claims the row before it calls the provider, so a duplicate
-- event (INSERT OR IGNORE on the key) or a redelivered queue message sends nothing twice.
CREATE TABLE notifications (
  id INTEGER PRIMARY KEY,
  -- order number : kind [: reference, e.g. a refund or a return] : channel
  key TEXT NOT NULL UNIQUE,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  kind TEXT NOT NULL
    CHECK (kind IN ('placed', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded', 'return_received')),
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
CREATE INDEX notifications_order ON notifications(order_id, id);
CREATE INDEX notifications_pending ON notifications(status, enqueued_at);

-- The shopper's language at checkout (their messages and documents speak it), and the shop's
-- origin the order was placed through (links in messages when PUBLIC_ORIGIN is not set).
ALTER TABLE orders ADD COLUMN lang TEXT NOT NULL DEFAULT 'en' CHECK (lang IN ('en', 'ar'));
ALTER TABLE orders ADD COLUMN site_origin TEXT;

-- The development outbox keeps the whole message, as the shopper would read it.
ALTER TABLE dev_outbox ADD COLUMN subject TEXT;
ALTER TABLE dev_outbox ADD COLUMN body TEXT;
ALTER TABLE dev_outbox ADD COLUMN html TEXT;

-- Stale carts (the cron expires them) are found by their last change.
CREATE INDEX IF NOT EXISTS carts_updated ON carts(updated_at);
