-- E-invoicing phase 2: every tax document is also a signed UBL document, chained to the one
-- before it and reported to (or cleared by) ZATCA.

-- Tax documents gain the debit note (an order's total raised after its invoice) and the kind of
-- transaction: simplified (a shopper) or standard (a business buyer who gave a VAT number).
-- SQLite cannot change a CHECK in place, so the table is rebuilt with its rows and ids.
PRAGMA defer_foreign_keys = true;
CREATE TABLE tax_documents_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL CHECK (kind IN ('invoice', 'credit_note', 'debit_note')),
  seq INTEGER NOT NULL CHECK (seq > 0),
  number TEXT NOT NULL UNIQUE,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  refund_id TEXT UNIQUE REFERENCES refunds(id),
  subtotal INTEGER NOT NULL DEFAULT 0,
  discount INTEGER NOT NULL DEFAULT 0,
  shipping INTEGER NOT NULL DEFAULT 0,
  vat INTEGER NOT NULL CHECK (vat >= 0),
  total INTEGER NOT NULL CHECK (total >= 0),
  currency TEXT NOT NULL,
  issued_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  seller TEXT CHECK (seller IS NULL OR json_valid(seller)),
  transaction_type TEXT NOT NULL DEFAULT 'simplified' CHECK (transaction_type IN ('simplified', 'standard')),
  -- Debit notes: why the total was raised (credit notes take theirs from the refund).
  reason TEXT,
  UNIQUE (kind, seq),
  CHECK ((kind = 'credit_note') = (refund_id IS NOT NULL)),
  CHECK (kind != 'debit_note' OR reason IS NOT NULL)
);
INSERT INTO tax_documents_new
  (id, kind, seq, number, order_id, refund_id, subtotal, discount, shipping, vat, total, currency, issued_at, seller)
SELECT id, kind, seq, number, order_id, refund_id, subtotal, discount, shipping, vat, total, currency, issued_at, seller
FROM tax_documents;
DROP TABLE tax_documents;
ALTER TABLE tax_documents_new RENAME TO tax_documents;
CREATE UNIQUE INDEX tax_documents_one_invoice ON tax_documents(order_id) WHERE kind = 'invoice';
CREATE INDEX tax_documents_order ON tax_documents(order_id);

-- A business buyer's details, given at checkout: their invoice is a standard one, cleared by ZATCA.
ALTER TABLE orders ADD COLUMN buyer_company TEXT;
ALTER TABLE orders ADD COLUMN buyer_vat_number TEXT CHECK (buyer_vat_number IS NULL OR (length(buyer_vat_number) = 15
  AND buyer_vat_number NOT GLOB '*[^0-9]*' AND buyer_vat_number GLOB '3*3'));

-- The shop's e-invoicing unit (ZATCA's EGS): its registration, its key (encrypted with
-- EINVOICE_KEY_SECRET), the certificates ZATCA issued and where onboarding stands. One per shop.
-- `lease_*` lets one stamper at a time extend the chain.
CREATE TABLE einvoice_units (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  -- "1-<solution>|2-<model>|3-<uuid>", the CSR's serial number
  serial TEXT NOT NULL,
  -- JSON: crn, the national address, branch, industry (contract/einvoicing.ts EInvoiceRegistration)
  registration TEXT NOT NULL CHECK (json_valid(registration)),
  environment TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('registered', 'compliance', 'production')),
  private_key TEXT,
  csr TEXT,
  compliance_token TEXT,
  compliance_secret TEXT,
  compliance_request_id TEXT,
  -- JSON array of the sample kinds that passed ZATCA's compliance checks
  compliance_passed TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(compliance_passed)),
  production_token TEXT,
  production_secret TEXT,
  certificate_expires_at TEXT,
  -- Documents up to this tax_documents.id were issued before production: they stay phase-1 documents.
  starts_after INTEGER NOT NULL DEFAULT 0,
  lease_until INTEGER NOT NULL DEFAULT 0,
  lease_token TEXT,
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_by TEXT
);

-- Each signed document in the chain. A tax document has one, or more when ZATCA rejected one and
-- staff sent it again: the rejected one keeps its place (its ICV and hash stay in the chain) and
-- the new one follows the head. UNIQUE(icv) and UNIQUE(pih) make a gap-free chain without forks.
CREATE TABLE einvoices (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  document_id INTEGER NOT NULL REFERENCES tax_documents(id) ON DELETE CASCADE,
  icv INTEGER NOT NULL UNIQUE CHECK (icv > 0),
  uuid TEXT NOT NULL UNIQUE,
  pih TEXT NOT NULL UNIQUE,
  hash TEXT NOT NULL UNIQUE,
  transaction_type TEXT NOT NULL CHECK (transaction_type IN ('simplified', 'standard')),
  xml TEXT NOT NULL,
  qr TEXT NOT NULL,
  -- pending → reported | reported_with_warnings (simplified), cleared | cleared_with_warnings
  -- (standard), or rejected; superseded once a corrected copy was sent
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN
    ('pending', 'reported', 'reported_with_warnings', 'cleared', 'cleared_with_warnings', 'rejected', 'superseded')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT,
  last_error TEXT,
  -- JSON: ZATCA's warnings and errors [{ type, code, category, message }]
  messages TEXT CHECK (messages IS NULL OR json_valid(messages)),
  cleared_xml TEXT,
  alerted_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  answered_at TEXT,
  CHECK ((icv = 1) OR pih != '')
);
CREATE INDEX einvoices_document ON einvoices(document_id, icv);
CREATE INDEX einvoices_due ON einvoices(status, next_attempt_at);
