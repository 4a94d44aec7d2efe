// A shopper's account as the backend answers it (/client/auth/*).
// Part of the contract between the storefront and the backend (DESIGN §6, §10): both sides import
// it, and it imports neither (test/node/boundaries.test.ts).

/** GET /client/auth/profile, and `user` in the answers of register and login. */
export interface Account {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  verified: boolean;
  /** A new email waiting for its code; present only while there is one. */
  pending_email?: string;
  /**
   * Present (true) only for an account with no password (made by a sign-in code): its changes of
   * email or phone are proven by a fresh code (`code` on POST /client/auth/profile), not a password.
   */
  code_only?: true;
}

/** The bearer token register and login hand out. */
export interface AccessToken {
  access_token: string;
  expires_at: string;
}

/** The `data` of register and login (spec §3): the account and its token. */
export interface SignedIn {
  user: Account;
  auth_data: AccessToken;
}
