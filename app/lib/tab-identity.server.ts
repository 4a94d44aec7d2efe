import type { RouterContextProvider } from "react-router";
import { shopContext } from "./context";
import type { TabIdentity } from "./tab-storage";

/**
 * The signed-in session's token, for a page whose reads run in the browser: session storage is
 * per tab, the session cookie is not, so a new tab (a link from a message) gets it from the page
 * and calls the backend as the account (tab-storage.ts restoreIdentity). Null for a guest.
 */
export async function tabIdentity(context: Readonly<RouterContextProvider>): Promise<TabIdentity | null> {
  const session = await context.get(shopContext).getSession();
  return session ? { token: session.token, userId: session.user.id } : null;
}
