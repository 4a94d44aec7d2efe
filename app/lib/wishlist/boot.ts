import { whenIdle } from "../../client/idle";
import { IDENTITY_EVENT, readStored } from "../tab-storage";
import { WISHLIST_KEY } from "./key";

/**
 * Started after hydration on every page (client/after-hydration.ts), so no page's first load
 * carries it. The wishlist's copy in this browser follows the account (lib/wishlist/sync.ts):
 * once the page is idle, when the shopper signs in or out (lib/identity.ts says so) and when the
 * connection returns, a signed-in browser sends the changes it made offline and mirrors the
 * account's list (a guest's list merges into it); signed out, the account's copy is dropped.
 * The sync's code loads only when there is something to do.
 */
function sync(): void {
  const signedIn = readStored("token") !== null;
  // A guest has something to do only when the browser still holds an account's copy.
  let accountCopy = false;
  try {
    accountCopy = Boolean((JSON.parse(localStorage.getItem(WISHLIST_KEY) ?? "{}") as { owner?: unknown }).owner);
  } catch {
    // Unreadable: nothing of an account's to drop.
  }
  if (!signedIn && !accountCopy) return;
  const locale = document.documentElement.lang.toLowerCase().startsWith("ar") ? "ar" : "en";
  void import("./sync").then((m) => m.syncWishlist(locale, signedIn));
}

whenIdle(sync);
addEventListener(IDENTITY_EVENT, sync);
addEventListener("online", sync);
