-- Cash on delivery. An order paid in cash carries the fee the shop charged for it (its total
-- includes it) and, once the shopper gives one for a refund, the Saudi IBAN the money goes back to.
-- Its phone code is kept as an HMAC, one live code per order; the bank transfers a COD refund owes
-- are recorded until staff mark them sent.
ALTER TABLE orders ADD COLUMN cod_fee INTEGER NOT NULL DEFAULT 0 CHECK (cod_fee >= 0);
ALTER TABLE orders ADD COLUMN refund_iban TEXT;
ALTER TABLE orders ADD COLUMN refund_iban_name TEXT;

CREATE TABLE cod_codes (
  order_id INTEGER PRIMARY KEY REFERENCES orders(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  tries INTEGER NOT NULL DEFAULT 0,
  sent_count INTEGER NOT NULL DEFAULT 1,
  sent_at INTEGER NOT NULL
);

CREATE TABLE bank_transfers (
  id TEXT PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  payment_id TEXT NOT NULL REFERENCES payments(id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  iban TEXT NOT NULL,
  holder TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'due' CHECK (status IN ('due', 'sent')),
  reference TEXT,
  sent_at TEXT,
  staff_user_id INTEGER,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX bank_transfers_order ON bank_transfers(order_id);
CREATE INDEX bank_transfers_due ON bank_transfers(status, created_at);
