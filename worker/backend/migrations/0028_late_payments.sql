-- A gateway's "paid" for a payment the shop had already closed (its order cancelled, or its hold
-- run out, while the shopper was still on the gateway's page). The money was taken for an order
-- the shop will not fill: the payment stays failed (the order never counts it), and this row
-- records what is owed back and whether the refund went through. One row per payment, so a
-- repeated event records it once. Only added: nothing existing changes.
CREATE TABLE late_payments (
  payment_id TEXT PRIMARY KEY REFERENCES payments(id),
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  -- What the gateway took, in halalas.
  amount INTEGER NOT NULL CHECK (amount >= 0),
  currency TEXT NOT NULL,
  provider_ref TEXT,
  -- owed: nobody has refunded it yet (or the gateway refused); pending: a refund is under way.
  refund_status TEXT NOT NULL DEFAULT 'owed' CHECK (refund_status IN ('owed', 'pending', 'refunded')),
  refund_ref TEXT,
  refund_message TEXT,
  refunded_at TEXT,
  received_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX late_payments_order ON late_payments(order_id);
-- The console's dashboard lists the ones still owed.
CREATE INDEX late_payments_owed ON late_payments(received_at) WHERE refund_status <> 'refunded';
