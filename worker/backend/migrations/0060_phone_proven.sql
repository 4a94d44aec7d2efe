-- Whether the account's phone was proven by a code sent to it (services/accounts/code-sign-in.ts).
-- A number typed at password registration was never proven: a code to it alone must not sign in to
-- that account, or whoever registered with someone else's number would be handed that person's
-- sign-ins. Set when an account is made by a phone code and when a verify, reset or sign-in code
-- sent to the phone is used. Existing rows stay NULL (unproven): nothing recorded which codes
-- went to a phone. A column is added, no table rebuilt: no row is touched.
ALTER TABLE users ADD COLUMN phone_verified_at TEXT;

-- A new number has had no code: changing the phone by any path (the profile, staff) clears the
-- proof, unless the same statement proves the new number itself (it sets phone_verified_at anew).
CREATE TRIGGER users_phone_changed_proof AFTER UPDATE OF phone ON users
WHEN OLD.phone IS NOT NEW.phone AND NEW.phone_verified_at IS OLD.phone_verified_at
  AND NEW.phone_verified_at IS NOT NULL
BEGIN
  UPDATE users SET phone_verified_at = NULL WHERE id = NEW.id;
END;
