-- Per-customer promo limits are enforced inside the order batch: each redemption
-- row carries whether the customer (account or email, case-insensitive) was still under the
-- code's per_user_limit when it was written, computed in the INSERT itself. A 0 fails this CHECK
-- and rolls the whole order batch back, so two racing checkouts cannot both redeem the last use.
ALTER TABLE promo_redemptions ADD COLUMN within_limit INTEGER NOT NULL DEFAULT 1 CONSTRAINT promo_per_customer CHECK (within_limit = 1);
