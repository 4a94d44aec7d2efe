-- Refunds per line. Each order line counts how many of its units are claimed, by a return not
-- rejected or by a console refund of its lines not failed, and what those claims give back
-- (halalas). Both paths add to the same counters in the batch that makes the claim, and the CHECK
-- refuses more units than were bought, so a line refunded from the console cannot be returned for
-- money again, nor a returned line refunded again from the console, even when two staff race.
ALTER TABLE order_items ADD COLUMN claimed_quantity INTEGER NOT NULL DEFAULT 0
  CHECK (claimed_quantity >= 0 AND claimed_quantity <= quantity);
ALTER TABLE order_items ADD COLUMN claimed_amount INTEGER NOT NULL DEFAULT 0 CHECK (claimed_amount >= 0);

-- Lines claimed before these columns: the returns not rejected, as services/returns.ts counted them.
UPDATE order_items SET
  claimed_quantity = (
    SELECT COALESCE(SUM(ri.quantity), 0) FROM return_items ri JOIN returns r ON r.id = ri.return_id
    WHERE ri.order_item_id = order_items.id AND r.status <> 'rejected'),
  claimed_amount = (
    SELECT COALESCE(SUM(ri.amount), 0) FROM return_items ri JOIN returns r ON r.id = ri.return_id
    WHERE ri.order_item_id = order_items.id AND r.status <> 'rejected')
WHERE id IN (SELECT order_item_id FROM return_items);

-- The shipping charge is refunded at most once, and only when staff choose to.
ALTER TABLE orders ADD COLUMN shipping_refunded INTEGER NOT NULL DEFAULT 0 CHECK (shipping_refunded IN (0, 1));
-- Orders refunded in full before this column had their shipping refunded with the rest.
UPDATE orders SET shipping_refunded = 1 WHERE shipping > 0 AND refunded > 0 AND refunded >= total;

-- What a console refund gave back of the shipping charge (its credit note's shipping line), and
-- whether staff put its lines back in stock.
ALTER TABLE refunds ADD COLUMN shipping INTEGER NOT NULL DEFAULT 0 CHECK (shipping >= 0);
ALTER TABLE refunds ADD COLUMN restock INTEGER NOT NULL DEFAULT 0 CHECK (restock IN (0, 1));

-- The lines of a console refund. `applied` is changes() of the conditional update of the order
-- line's counters just before it in the batch: a line someone else claimed meanwhile aborts the
-- whole refund. A refund with no lines is an amount-only refund, tied to no line.
CREATE TABLE refund_items (
  id INTEGER PRIMARY KEY,
  refund_id TEXT NOT NULL REFERENCES refunds(id) ON DELETE CASCADE,
  order_item_id INTEGER NOT NULL REFERENCES order_items(id) ON DELETE CASCADE,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  amount INTEGER NOT NULL CHECK (amount >= 0),
  applied INTEGER NOT NULL CHECK (applied = 1)
);
CREATE INDEX refund_items_refund ON refund_items(refund_id);

-- Staff's internal notes on an order or a customer: never shown to shoppers. `subject` is
-- `order:<orders.id>`, `user:<users.id>`, or `guest:<email>` for a buyer without an account.
CREATE TABLE staff_notes (
  id INTEGER PRIMARY KEY,
  subject TEXT NOT NULL,
  body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
  staff_user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  staff_email TEXT NOT NULL,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX staff_notes_subject ON staff_notes(subject, id);
