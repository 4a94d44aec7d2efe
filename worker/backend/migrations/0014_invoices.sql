-- Tax documents: the simplified tax invoice of a paid order and the credit note of each
-- succeeded refund. A document is a snapshot: its amounts are copied at issue and never change.
-- Numbers run per kind without gaps (INV-000001, CN-000001): `seq` is the kind's largest plus one,
-- taken inside the batch that issues it (D1 runs a batch as one transaction).
CREATE TABLE tax_documents (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('invoice', 'credit_note')),
  seq INTEGER NOT NULL CHECK (seq > 0),
  number TEXT NOT NULL UNIQUE,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  -- Credit notes: the refund it documents (refunds.id is TEXT, rfd_…).
  refund_id TEXT UNIQUE REFERENCES refunds(id),
  -- Invoices: the order's totals; credit notes: the refund's amount (total) and the VAT in it.
  subtotal INTEGER NOT NULL DEFAULT 0,
  discount INTEGER NOT NULL DEFAULT 0,
  shipping INTEGER NOT NULL DEFAULT 0,
  vat INTEGER NOT NULL CHECK (vat >= 0),
  total INTEGER NOT NULL CHECK (total >= 0),
  currency TEXT NOT NULL,
  issued_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (kind, seq),
  CHECK ((kind = 'invoice') = (refund_id IS NULL))
);
-- One invoice per order: issuing twice (a replayed webhook, a lazy read racing the payment) is a no-op.
CREATE UNIQUE INDEX tax_documents_one_invoice ON tax_documents(order_id) WHERE kind = 'invoice';
CREATE INDEX tax_documents_order ON tax_documents(order_id);
