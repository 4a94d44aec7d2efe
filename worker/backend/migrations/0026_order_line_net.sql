-- What was paid for each order line: its list total less its share of the order's discount, in
-- halalas. Returns, their credit notes and the console's "amount to refund" are worked out from it,
-- so a returned unit gives back what was paid for it, never its list price. Checkout writes it with
-- each line (services/money.ts, lineNets); the order's lines add up exactly to subtotal − discount.
ALTER TABLE order_items ADD COLUMN net_total INTEGER CHECK (net_total IS NULL OR net_total >= 0);

-- Orders placed before this column: their discount shared across their lines exactly as
-- services/money.ts `allocate` shares it (in proportion to the line totals, whole halalas, the
-- halalas left over to the largest remainders, ties to the earlier line), so they add up exactly.
UPDATE order_items SET net_total = order_items.line_total - shares.share
FROM (
  SELECT id,
    floor_share + (CASE WHEN lines = 0 THEN 0
      ELSE ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY remainder DESC, id)
        <= discount - SUM(floor_share) OVER (PARTITION BY order_id) END) AS share
  FROM (
    SELECT oi.id, oi.order_id, o.discount, t.lines,
      CASE WHEN t.lines = 0 THEN 0 ELSE oi.line_total * o.discount / t.lines END AS floor_share,
      CASE WHEN t.lines = 0 THEN 0 ELSE oi.line_total * o.discount % t.lines END AS remainder
    FROM order_items oi
    JOIN orders o ON o.id = oi.order_id
    JOIN (SELECT order_id, SUM(line_total) AS lines FROM order_items GROUP BY order_id) t ON t.order_id = oi.order_id
  )
) AS shares
WHERE shares.id = order_items.id AND order_items.net_total IS NULL;

-- Returns asked for before this column and not refunded yet were priced at list price: each of
-- their lines becomes its units' share of the line's net (rounded down, so the order's open returns
-- never add up to more than was paid). The amount they had stays on the order's timeline in a
-- `return_repriced` line. A return whose share rounds to nothing keeps its amount (a return
-- must have one) and refundOrder's cap on what is left to refund still applies to it.
INSERT INTO order_events (order_id, type, detail, actor)
SELECT r.id_order, 'return_repriced', json_object('return_id', r.id, 'amount_before', r.amount, 'amount', r.net), 'system'
FROM (
  SELECT r.order_id AS id_order, r.id, r.amount,
    (SELECT SUM(oi.net_total * ri.quantity / oi.quantity) FROM return_items ri JOIN order_items oi ON oi.id = ri.order_item_id
     WHERE ri.return_id = r.id) AS net
  FROM returns r WHERE r.status IN ('requested', 'approved', 'received')
) r
WHERE r.net > 0 AND r.net <> r.amount;

UPDATE return_items SET amount = (
  SELECT oi.net_total * return_items.quantity / oi.quantity FROM order_items oi WHERE oi.id = return_items.order_item_id
)
WHERE return_id IN (
  SELECT r.id FROM returns r
  WHERE r.status IN ('requested', 'approved', 'received')
    AND (SELECT SUM(oi.net_total * ri.quantity / oi.quantity) FROM return_items ri
         JOIN order_items oi ON oi.id = ri.order_item_id WHERE ri.return_id = r.id) > 0
);

UPDATE returns SET amount = (SELECT SUM(amount) FROM return_items WHERE return_id = returns.id), updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE status IN ('requested', 'approved', 'received')
  AND (SELECT SUM(oi.net_total * ri.quantity / oi.quantity) FROM return_items ri
       JOIN order_items oi ON oi.id = ri.order_item_id WHERE ri.return_id = returns.id) > 0;

-- A per-customer promo limit also counts the order's delivery phone: a new account (or checkout
-- email) with the same phone is the same customer. Kept as services/promo.ts `promoPhoneKey` writes
-- it: digits only, without the international prefix (00 or +), a Saudi national number (0 then
-- the number, or a bare 5xxxxxxxx mobile) with 966 in front.
ALTER TABLE promo_redemptions ADD COLUMN phone TEXT;
CREATE INDEX promo_redemptions_phone ON promo_redemptions(promo_id, phone);

UPDATE promo_redemptions SET phone = keyed.phone
FROM (
  SELECT id,
    CASE
      WHEN d GLOB '0[1-9]*' THEN '966' || substr(d, 2)
      WHEN length(d) = 9 AND d GLOB '5*' THEN '966' || d
      ELSE NULLIF(d, '')
    END AS phone
  FROM (
    SELECT id, CASE WHEN d0 GLOB '00*' THEN substr(d0, 3) ELSE d0 END AS d
    FROM (
      SELECT id,
        replace(replace(replace(replace(replace(replace(
          COALESCE(phone, CASE WHEN json_valid(address) THEN json_extract(address, '$.phone') END, ''), '+', ''), ' ', ''), '-', ''), '(', ''), ')', ''), '.', '') AS d0
      FROM orders
    )
  )
) AS keyed
WHERE keyed.id = promo_redemptions.order_id AND promo_redemptions.phone IS NULL;
