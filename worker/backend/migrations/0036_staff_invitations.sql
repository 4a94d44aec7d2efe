-- Staff join by invitation: an owner invites an email with a role; the invitee accepts from the
-- emailed link while signed in to a verified shop account of that very email. Only the SHA-256
-- of the link's token is kept, so a copy of the database opens no seat. A resend replaces the
-- hash (the old link is dead); accepting and revoking end it for good. An invitation past
-- `expires_at` is expired whatever its status says until something touches it.
CREATE TABLE staff_invitations (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  role TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'support')),
  -- the language the email was written in (the inviter's console's, or the one they chose)
  lang TEXT NOT NULL CHECK (lang IN ('en', 'ar')),
  token_hash TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'revoked', 'expired')),
  expires_at TEXT NOT NULL,
  invited_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  accepted_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  accepted_at TEXT,
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- One open invitation an address: a second is a resend of the first.
CREATE UNIQUE INDEX staff_invitations_open_email ON staff_invitations (lower(email)) WHERE status = 'pending';
CREATE INDEX staff_invitations_status ON staff_invitations (status, created_at);
