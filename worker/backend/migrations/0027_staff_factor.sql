-- The console's second factor is the code sent to a staff member's email, so that email must be
-- one the password alone cannot move. `staff.email` pins the address the seat was granted for:
-- the console code is sent, and a console session counts, only while the account's email is still
-- that one (services/staff.ts). Existing seats are pinned to their account's current email.
ALTER TABLE staff ADD COLUMN email TEXT COLLATE NOCASE;
UPDATE staff SET email = (SELECT u.email FROM users u WHERE u.id = staff.user_id) WHERE email IS NULL;

-- When the account's password last changed (Unix seconds; a change or a reset). A staff account's
-- console stays closed for a while after it (CONSOLE_FREEZE_SECONDS): whoever reset the password
-- through the inbox, or changed it with a stolen one, does not walk into the console with it.
ALTER TABLE users ADD COLUMN password_changed_at INTEGER;
