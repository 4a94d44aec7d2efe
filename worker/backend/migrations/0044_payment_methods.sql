-- How each payment was made: `card` on the provider's page (every payment before this), or a
-- method with a flow of its own (STC Pay's code on the shop's page, a pay-later provider's
-- checkout), whose gateway answer may name the address that takes the next step
-- (`transaction_url`). Refunds and checks follow the method; the code names the methods.
ALTER TABLE payments ADD COLUMN method TEXT NOT NULL DEFAULT 'card';
ALTER TABLE payments ADD COLUMN transaction_url TEXT;
