import type { Wishlist } from "../../../contract/wishlist";
import { browserApi } from "../api/browser";
import { ApiError } from "../api/errors";
import { getWishlist, mergeWishlist, removeFromWishlist } from "../api/wishlist";
import type { Locale } from "../locales";
import { readStored } from "../tab-storage";
import {
  EMPTY_WISHLIST,
  mirrorAccount,
  readWishlist,
  toggleItem,
  withoutPending,
  writeWishlist,
  type LocalItem,
  type ToggleOutcome,
} from "./local";

/**
 * The browser's list and the account's, kept in step (loaded after the page is idle, never in a
 * page's first load):
 * - signed in with a guest's list: it merges into the account's (the union, earliest times
 *   kept), and the browser's copy then mirrors the account's;
 * - signed in: the changes made while the backend could not be reached are sent, on the next
 *   visit or when the connection returns (`online`), then the account's list is mirrored;
 * - signed out with an account's copy: the copy leaves this browser (a shared device).
 */

let running: Promise<void> | null = null;
let again = false;

/** A failure to try again later: no answer, the backend failing, or too many changes at once (429). */
const transient = (error: unknown) =>
  !(error instanceof ApiError) || error.status === 0 || error.status === 429 || error.status >= 500;

/** The identity the list follows: the signed-in user's id, or null for a guest. */
function account(signedIn: boolean): string | null {
  return signedIn && readStored("token") ? readStored("userId") : null;
}

async function syncOnce(locale: Locale, signedIn: boolean): Promise<void> {
  const owner = account(signedIn);
  const list = readWishlist();
  if (owner === null) {
    if (list.owner !== null && !signedIn) writeWishlist(EMPTY_WISHLIST);
    return;
  }
  const api = browserApi(locale);
  const mirror = (answer: Wishlist, sent: typeof list.pending = []) =>
    writeWishlist(mirrorAccount(withoutPending(readWishlist(), sent), owner, answer.items, locale));
  try {
    if (list.owner === null) {
      // A guest's list joins the account's: every item, with the time it was saved here.
      const { data } = list.items.length
        ? await mergeWishlist(
            api,
            list.items.map(({ slug, variant_id, saved_at }) => ({ slug, variant_id, saved_at })),
          )
        : await getWishlist(api);
      mirror(data);
      return;
    }
    if (list.owner !== owner) {
      // Another account's copy (signed out while offline): this account's list replaces it.
      writeWishlist(EMPTY_WISHLIST);
      mirror((await getWishlist(api)).data);
      return;
    }
    let answer: Wishlist | null = null;
    const sent: typeof list.pending = [];
    const adds = list.pending.filter((p) => p.op === "add");
    if (adds.length) {
      answer = (
        await mergeWishlist(
          api,
          adds.map((p) => ({ slug: p.slug, variant_id: p.variant_id, saved_at: p.saved_at })),
        )
      ).data;
      sent.push(...adds);
    }
    for (const change of list.pending) {
      if (change.op !== "remove") continue;
      try {
        answer = (await removeFromWishlist(api, change.slug)).data;
      } catch (error) {
        if (transient(error)) throw error;
        // Refused for good (a malformed slug): dropped, not retried forever.
      }
      sent.push(change);
    }
    mirror(answer ?? (await getWishlist(api)).data, sent);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return;
    if (!transient(error) && list.owner === owner) {
      // The account refused the adds for good (a malformed one): they are dropped.
      writeWishlist({ ...readWishlist(), pending: readWishlist().pending.filter((p) => p.op !== "add") });
    }
    // Offline or failing: the changes wait for the connection or the next visit.
  }
}

/** Runs a sync, one at a time; asked again while one runs, it runs once more after. */
export function syncWishlist(locale: Locale, signedIn: boolean): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = syncOnce(locale, signedIn).finally(() => {
    running = null;
    if (again) {
      again = false;
      void syncWishlist(locale, signedIn);
    }
  });
  return running;
}

/**
 * Saves a product or takes it out, at once in this browser; signed in, the account follows now
 * or, offline, when the connection returns.
 */
export function toggleSaved(item: LocalItem, locale: Locale, signedIn: boolean): ToggleOutcome {
  const held = readWishlist();
  // An account's copy left behind by a sign-out elsewhere is not this guest's list.
  const { list, outcome } = toggleItem(!signedIn && held.owner !== null ? EMPTY_WISHLIST : held, item);
  if (outcome !== "full") writeWishlist(list);
  if (list.owner !== null && navigator.onLine) void syncWishlist(locale, signedIn);
  return outcome;
}
