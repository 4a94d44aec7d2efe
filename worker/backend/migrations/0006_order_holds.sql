-- Holding stock is capped per network, per guest or account and per email:
-- each order remembers the network it was placed from, as an HMAC under the pepper (never the
-- address itself), and the unpaid orders that hold stock are found by owner, email and network.
ALTER TABLE orders ADD COLUMN network_hash TEXT;
CREATE INDEX orders_holding_guest ON orders(guest_id) WHERE stock_reserved = 1 AND status = 'pending_payment';
CREATE INDEX orders_holding_user ON orders(user_id) WHERE stock_reserved = 1 AND status = 'pending_payment';
CREATE INDEX orders_holding_email ON orders(email COLLATE NOCASE) WHERE stock_reserved = 1 AND status = 'pending_payment';
CREATE INDEX orders_holding_network ON orders(network_hash) WHERE stock_reserved = 1 AND status = 'pending_payment';
