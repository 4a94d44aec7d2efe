import type { Account } from "../../../contract/account";
import type { CodeSignedIn } from "../../../contract/code-sign-in";
import type { Recipient } from "./account";
import type { Api } from "./client";

/**
 * Signing in with a code: a module of its own, loaded with the code flow only (the login page's
 * first load carries the password sign-in's calls alone).
 */

/** POST /client/auth/code/request: a sign-in code to a phone or an email, account or not. */
export function requestSignInCode(api: Api, recipient: Recipient) {
  return api.post("/client/auth/code/request", recipient);
}

/**
 * POST /client/auth/code/verify: a right code signs in (a new number or address gets its account).
 * `password`: only after a 409 `needs_password` (a phone never proven by a code).
 */
export function verifySignInCode(api: Api, recipient: Recipient, code: string, password = "") {
  return api.post<CodeSignedIn>("/client/auth/code/verify", { ...recipient, code, ...(password ? { password } : {}) });
}

/** POST /client/auth/name: the name asked after a first code sign-in. */
export function saveName(api: Api, name: string) {
  return api.post<Account>("/client/auth/name", { name });
}
