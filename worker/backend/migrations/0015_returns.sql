-- Returns: a shopper asks to send back lines of a delivered order within the return
-- window (RETURN_WINDOW_DAYS after delivered_at); staff approve or reject it, mark it received
-- (the items go back on the shelf: a stock update with an inventory_adjustments line of reason
-- 'returned'), then refund it through the provider (refunds.id in refund_id).
-- Every step is a conditional update on the status read (`WHERE status = ?`) followed by its line
-- on the order's timeline as the guard (order_events.applied = changes(), 0012): a second click
-- finds nothing to change and its whole batch rolls back.
CREATE TABLE returns (
  id TEXT PRIMARY KEY,
  order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'requested'
    CHECK (status IN ('requested', 'approved', 'rejected', 'received', 'refunded')),
  -- The returned lines at the price paid, in halalas: what the refund gives back.
  amount INTEGER NOT NULL CHECK (amount > 0),
  -- Who approved or rejected it (a staff account) and why, when rejected.
  decided_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  decided_at TEXT,
  decision_note TEXT,
  received_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  received_at TEXT,
  refunded_at TEXT,
  refund_id TEXT REFERENCES refunds(id),
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX returns_order ON returns(order_id, created_at);
CREATE INDEX returns_open ON returns(status) WHERE status IN ('requested', 'approved', 'received');

-- The lines of a return. `within` is computed by the INSERT ... SELECT that writes the line: 1 when
-- the quantity fits in what was bought less what the order's other non-rejected returns claim. Two
-- requests racing cannot together claim more than was bought: the second line's CHECK fails and
-- its whole batch (the return with its lines) rolls back.
CREATE TABLE return_items (
  id INTEGER PRIMARY KEY,
  return_id TEXT NOT NULL REFERENCES returns(id) ON DELETE CASCADE,
  order_item_id INTEGER NOT NULL REFERENCES order_items(id) ON DELETE CASCADE,
  product_id INTEGER NOT NULL,
  quantity INTEGER NOT NULL CHECK (quantity > 0),
  reason TEXT NOT NULL CHECK (reason IN ('damaged', 'wrong_item', 'not_as_described', 'changed_mind', 'other')),
  note TEXT,
  amount INTEGER NOT NULL CHECK (amount >= 0),
  within INTEGER NOT NULL CHECK (within = 1)
);
CREATE INDEX return_items_return ON return_items(return_id);
CREATE INDEX return_items_order_item ON return_items(order_item_id);

