-- Orders in the console: an order's event doubles as the guard of the transition it
-- records. A transition's batch runs its conditional status update, then the event with
-- applied = changes(): when another click already moved the order, changes() is 0, the CHECK
-- fails and D1 rolls the whole batch back (status, event, stock, audit line), so two staff
-- clicking at once cannot ship or refund twice. Events written by the existing flows keep the
-- default 1.
ALTER TABLE order_events ADD COLUMN applied INTEGER NOT NULL DEFAULT 1 CHECK (applied = 1);

-- The refunds of a payment, summed for its refunded state.
CREATE INDEX refunds_payment ON refunds(payment_id, status);
