-- Reminders about a cart left at checkout (services/cart-reminders). Three tables:

-- The address a guest gave at checkout for a reminder, on their cart (and deleted with it). The
-- consent itself is in `consents`, under the same keyed hash; a signed-in shopper's reminders go
-- to their account's address and follow their account's consent, so they need no row here.
CREATE TABLE cart_contacts (
  cart_id INTEGER PRIMARY KEY REFERENCES carts(id) ON DELETE CASCADE,
  channel TEXT NOT NULL CHECK (channel IN ('email', 'sms')),
  -- an email address (case-folded) or an E.164 phone number
  recipient TEXT NOT NULL,
  recipient_hash TEXT NOT NULL,
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ar')),
  site_origin TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Each reminder owed, with the cart contents it was about (at most two per contents) and the hash
-- of its restore link's token (the token itself is only in the message). `cart_id` is no foreign
-- key: a reminder outlives its cart, for the report of what reminders brought back; when the cart
-- goes, the trigger below lets go of it (a cart's id may be given to a new cart after it).
CREATE TABLE cart_reminders (
  id INTEGER PRIMARY KEY,
  cart_id INTEGER,
  round INTEGER NOT NULL CHECK (round IN (1, 2)),
  contents TEXT NOT NULL,
  message_key TEXT NOT NULL UNIQUE,
  token_hash TEXT NOT NULL UNIQUE,
  -- whom it went to: the account, or a guest's address by its keyed hash (for the stop link)
  user_id INTEGER,
  recipient_hash TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (cart_id, contents, round)
);
CREATE INDEX cart_reminders_cart ON cart_reminders(cart_id, id);
CREATE INDEX cart_reminders_created ON cart_reminders(created_at);

CREATE TRIGGER cart_reminders_cart_gone AFTER DELETE ON carts BEGIN
  UPDATE cart_reminders SET cart_id = NULL WHERE cart_id = OLD.id;
END;

-- A cart filled from a reminder's link: which reminder it came from, so an order placed from it
-- counts as recovered and ends the reminded cart's reminders. Deleted with the cart it filled.
CREATE TABLE cart_restores (
  cart_id INTEGER PRIMARY KEY REFERENCES carts(id) ON DELETE CASCADE,
  reminder_id INTEGER NOT NULL REFERENCES cart_reminders(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- An order placed from a reminded cart (restored or not) within the attribution window of a
-- reminder that was sent: one row per order, for the console's report.
CREATE TABLE cart_recoveries (
  order_id INTEGER PRIMARY KEY REFERENCES orders(id) ON DELETE CASCADE,
  reminder_id INTEGER NOT NULL REFERENCES cart_reminders(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX cart_recoveries_reminder ON cart_recoveries(reminder_id);
