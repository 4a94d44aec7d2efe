-- The VAT rate an order was charged at, kept with it: its tax invoice states that rate and works
-- each line's price without VAT from it, and a refund's credit note takes the VAT back at it, so a
-- later change of VAT_RATE never rewrites or miscounts a document about an earlier sale. Orders
-- placed before this column existed have none; their documents use the configured rate, as before.
ALTER TABLE orders ADD COLUMN vat_rate REAL CHECK (vat_rate IS NULL OR (vat_rate >= 0 AND vat_rate < 1));
