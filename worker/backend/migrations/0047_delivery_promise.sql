-- The delivery promise (contract/delivery-promise.ts): the shop day (YYYY-MM-DD, Asia/Riyadh) an
-- order was promised to arrive by, set when it is placed from its delivery city and the clock.
-- Orders placed before it keep NULL (they were promised nothing), so the dashboard's on-time
-- share counts only orders that carried a promise. Adding a nullable column keeps every row.
ALTER TABLE orders ADD COLUMN promised_by TEXT CHECK (promised_by IS NULL OR promised_by GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]');

-- The dashboard reads the delivered orders of a period by delivered_at.
CREATE INDEX IF NOT EXISTS idx_orders_delivered_at ON orders (delivered_at) WHERE delivered_at IS NOT NULL;
