-- Shipments: an order leaves in one or more parcels, each created with a carrier (its waybill is
-- the label's barcode) and followed by the carrier's events until delivered. A return picked up
-- from the shopper is a parcel of its own (kind 'return'). Orders shipped before keep their
-- carrier and tracking number on the order and read as they did.
CREATE TABLE shipments (
  id INTEGER PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  kind TEXT NOT NULL DEFAULT 'delivery' CHECK (kind IN ('delivery', 'return')),
  return_id TEXT REFERENCES returns(id) ON DELETE CASCADE,
  -- The order's parcel number (1, 2...): the reference the carrier gets is `{order number}-{seq}`.
  seq INTEGER NOT NULL CHECK (seq > 0),
  carrier TEXT NOT NULL,
  waybill TEXT NOT NULL,
  pickup_reference TEXT,
  status TEXT NOT NULL DEFAULT 'created' CHECK (status IN ('created', 'picked_up', 'in_transit',
    'out_for_delivery', 'delivery_attempted', 'delivered', 'returned_to_sender', 'cancelled')),
  weight_grams INTEGER NOT NULL CHECK (weight_grams >= 0),
  -- Halalas the courier collects at the door (0 for a paid order or a return).
  cod_amount INTEGER NOT NULL DEFAULT 0 CHECK (cod_amount >= 0),
  -- After a failed attempt: the day the shopper asked for (YYYY-MM-DD, shop time).
  next_attempt_on TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  staff_user_id INTEGER,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  picked_up_at TEXT,
  delivered_at TEXT,
  cancelled_at TEXT,
  polled_at TEXT,
  UNIQUE (carrier, waybill),
  UNIQUE (order_id, seq)
);
CREATE INDEX shipments_order ON shipments(order_id, seq);
CREATE INDEX shipments_open ON shipments(carrier, status) WHERE status NOT IN ('delivered', 'returned_to_sender', 'cancelled');
CREATE INDEX shipments_day ON shipments(carrier, created_at);

-- What each parcel holds: units of the order's lines. A line's units across its order's live
-- parcels never exceed what was bought less what was refunded: `within` is computed by the
-- INSERT ... SELECT that writes the row, so two staff shipping the same units at once cannot both
-- succeed (the second batch fails its CHECK and writes nothing).
CREATE TABLE shipment_items (
  shipment_id INTEGER NOT NULL REFERENCES shipments(id) ON DELETE CASCADE,
  order_item_id INTEGER NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  within INTEGER NOT NULL CHECK (within = 1),
  PRIMARY KEY (shipment_id, order_item_id)
);

-- Each step a carrier reported, once: the key is the carrier's own (code and moment), so a
-- webhook sent twice or a poll that reads the same history again adds nothing.
CREATE TABLE shipment_events (
  id INTEGER PRIMARY KEY,
  shipment_id INTEGER NOT NULL REFERENCES shipments(id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  code TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  location TEXT,
  happened_at TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (shipment_id, code, happened_at)
);
CREATE INDEX shipment_events_shipment ON shipment_events(shipment_id, happened_at);

-- Webhook deliveries already taken, by the carrier's delivery id: a replayed request is refused.
CREATE TABLE carrier_webhooks (
  carrier TEXT NOT NULL,
  delivery_id TEXT NOT NULL,
  received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  PRIMARY KEY (carrier, delivery_id)
);

-- Cash carriers report collected and paid over, matched to the parcel it was collected for.
CREATE TABLE cod_remittances (
  id INTEGER PRIMARY KEY,
  carrier TEXT NOT NULL,
  waybill TEXT NOT NULL,
  reference TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount >= 0),
  remitted_at TEXT NOT NULL,
  shipment_id INTEGER REFERENCES shipments(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (carrier, reference, waybill)
);
CREATE INDEX cod_remittances_shipment ON cod_remittances(shipment_id);

-- A parcel's own messages: out for delivery, and a missed delivery with the link to choose a new
-- day. SQLite cannot widen a CHECK in place: the outbox table is rebuilt with the wider list and
-- every row copied as it is (ids kept, so queued jobs still find theirs).
CREATE TABLE notifications_new (
  id INTEGER PRIMARY KEY,
  -- order number : kind [: reference, e.g. a refund, a return or a parcel's attempt] : channel
  key TEXT NOT NULL UNIQUE,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  kind TEXT NOT NULL
    CHECK (kind IN ('placed', 'paid', 'shipped', 'out_for_delivery', 'delivery_attempted', 'delivered', 'cancelled',
                    'refunded', 'return_received', 'return_requested', 'return_approved', 'return_rejected',
                    'staff_order', 'staff_return')),
  channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
  recipient TEXT NOT NULL,
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ar')),
  -- JSON with what the message says beyond the order (an amount, a reason, a waybill)
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
