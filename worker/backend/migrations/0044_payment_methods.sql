-- How each payment was made: `card` on the provider's page (every payment before this), or
-- `stcpay` confirmed on the shop's page with STC Pay's code, whose gateway answer names the
-- address that takes the code (`transaction_url`). Refunds and checks follow the method.
ALTER TABLE payments ADD COLUMN method TEXT NOT NULL DEFAULT 'card' CHECK (method IN ('card', 'stcpay'));
ALTER TABLE payments ADD COLUMN transaction_url TEXT;
