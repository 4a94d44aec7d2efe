import type { Account, SignedIn } from "../../contract/account";
import { whenIdle } from "../client/idle";

/**
 * Signing in from the login and register forms. It is needed on submit only, so identity.ts (with
 * the session and stored-user code) stays out of those pages' first load (the bundle budget,
 * docs/PERFORMANCE.md); the form asks for it once the browser is idle, long before a submit.
 */
const loadIdentity = () => import("./identity");

/** Queues the identity module's loading for an idle period; answers the cancel (an effect's cleanup). */
export function preloadSignIn(): () => void {
  return whenIdle(() => void loadIdentity());
}

export async function signInWith(authData: SignedIn): Promise<Account> {
  const { signIn } = await loadIdentity();
  return signIn(authData);
}
