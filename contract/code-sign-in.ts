// Signing in with a one-time code (/client/auth/code/*): the answers beside the password sign-in's.
// Part of the contract between the storefront and the backend (DESIGN §6, §10): both sides import
// it, and it imports neither (test/node/boundaries.test.ts).
import type { SignedIn } from "./account";

/** The digits of a sign-in code. */
export const SIGN_IN_CODE_DIGITS = 6;

/** Seconds before the storefront offers another code (the backend throttles resends as well). */
export const SIGN_IN_RESEND_SECONDS = 60;

/**
 * The `data` of POST /client/auth/code/verify: the same session as /client/auth/login, and whether
 * the account still has no name (made just now by this code): the storefront asks it next, since
 * an order needs one (POST /client/auth/name).
 */
export interface CodeSignedIn extends SignedIn {
  needs_name: boolean;
}
