-- The return a refund was made for. A return's refund used to carry the made-up reason
-- "Return ret_…" in English, which the console showed as is in Arabic too; the console now names
-- the return in the reader's language, and `reason` is what staff typed (none, for a return).
ALTER TABLE refunds ADD COLUMN return_id TEXT REFERENCES returns(id) ON DELETE SET NULL;

-- Refunds made for a return before this column: the return is in their reason.
UPDATE refunds SET return_id = substr(reason, 8), reason = NULL
WHERE reason LIKE 'Return %'
  AND EXISTS (SELECT 1 FROM returns r WHERE r.id = substr(refunds.reason, 8) AND r.order_id = refunds.order_id);

-- And the timeline's refund steps that carried it.
UPDATE order_events
SET detail = json_set(detail, '$.reason', json('null'), '$.return_id', substr(json_extract(detail, '$.reason'), 8))
WHERE type IN ('refund_requested', 'refunded', 'refund_failed')
  AND json_valid(detail)
  AND json_extract(detail, '$.reason') LIKE 'Return %'
  AND EXISTS (
    SELECT 1 FROM returns r
    WHERE r.id = substr(json_extract(order_events.detail, '$.reason'), 8) AND r.order_id = order_events.order_id
  );
