import type { useStore } from "jotai";
import type { Account, SignedIn } from "../../contract/account";
import { currentUserAtom } from "../state/user";
import type { SessionUser } from "./context";
import { browserApi, ownServerApi } from "./api/browser";
import { ApiError } from "./api/errors";
import type { Locale } from "./locales";
import { clearStored, IDENTITY_EVENT, readStored, writeStored } from "./tab-storage";

/**
 * The visitor's identity in the browser (spec §4 "Visitor identity"): signed in holds a token,
 * a guest holds a guestId. Login or register stores userId and token, then saves the user on
 * the product's own server; logout clears all session storage and the stored user.
 */

export interface Identity {
  token: string | null;
  userId: string | null;
  guestId: string | null;
}

export function currentIdentity(): Identity {
  return { token: readStored("token"), userId: readStored("userId"), guestId: readStored("guestId") };
}

export function isSignedIn(): boolean {
  return currentIdentity().token !== null;
}

/** The own server in the page's language (spec §7: it passes the language on to the backend). */
function ownServer() {
  return ownServerApi(document.documentElement.lang.toLowerCase().startsWith("ar") ? "ar" : "en");
}

/**
 * After register or login: stores `userId` and `token` in session storage, then saves the
 * user on the own server (`POST /api/add-user`), which checks the token and sets the session
 * cookie the server-rendered pages read. The guest cart was merged by the backend, so the
 * guest id is no longer needed.
 */
export async function signIn(authData: SignedIn): Promise<Account> {
  const token = authData.auth_data.access_token;
  const user = authData.user;
  writeStored("userId", String(user.id));
  writeStored("token", token);
  writeStored("guestId", null);
  await ownServer().post("/add-user", { token, user });
  // The wishlist follows (lib/wishlist/boot.ts): a guest's list merges into the account's.
  dispatchEvent(new Event(IDENTITY_EVENT));
  return user;
}

/** The user the own server keeps for this browser, or null for a guest. */
export async function fetchStoredUser(): Promise<SessionUser | null> {
  try {
    const res = await ownServer().get<SessionUser | undefined>("/get-user");
    return res.data ?? null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/**
 * Spec §7 `GET /api/get-user`, on app start in a tab that holds a token: the user the own server
 * keeps becomes the signed-in user in the browser. When the own server has none (signed out in
 * another tab, the session expired or its token was revoked), the tab's token and userId are
 * dropped, so it stops calling the backend with a token that no longer stands for a session.
 */
export async function restoreStoredUser(store: ReturnType<typeof useStore>): Promise<void> {
  if (!readStored("token")) return;
  let user: SessionUser | null;
  try {
    user = await fetchStoredUser();
  } catch {
    return; // Offline or the own server failing: keep what the tab has, ask again on the next start.
  }
  if (!user) {
    writeStored("token", null);
    writeStored("userId", null);
    store.set(currentUserAtom, null);
    return;
  }
  writeStored("userId", String(user.id));
  if (store.get(currentUserAtom) === undefined) store.set(currentUserAtom, user);
}

/**
 * Logout: revokes the token at the backend (`/client/auth/logout`), drops the own-server
 * session and its cookie (`POST /api/logout`), then clears ALL session storage. A failure of
 * either call still signs the visitor out in this browser.
 */
export async function signOut(locale: Locale): Promise<void> {
  // The client keeps the token it was made with; storage is cleared first so nothing else in the
  // page (a cart reload) calls the backend with a token that is about to be revoked.
  const api = readStored("token") ? browserApi(locale) : null;
  clearStored();
  try {
    await api?.post("/client/auth/logout");
  } catch (error) {
    console.warn("[identity] the backend logout failed", error);
  }
  try {
    await ownServer().post("/logout");
  } catch (error) {
    console.warn("[identity] the own-server logout failed", error);
  }
  clearStored();
  // The account's wishlist copy leaves this browser (lib/wishlist/boot.ts).
  dispatchEvent(new Event(IDENTITY_EVENT));
}

/**
 * The reset token between the code page and the new-password page: kept in session storage for
 * that one step only (never in the URL, so it stays out of history, logs and Referer).
 */
const RESET_KEY = "resetToken";

export function holdResetToken(token: string): void {
  try {
    window.sessionStorage.setItem(RESET_KEY, token);
  } catch {
    // Storage blocked: the new-password page will ask for a new code.
  }
}

export function readResetToken(): string | null {
  try {
    const value = window.sessionStorage.getItem(RESET_KEY);
    return value && /^[A-Za-z0-9_-]{20,128}$/.test(value) ? value : null;
  } catch {
    return null;
  }
}

export function dropResetToken(): void {
  try {
    window.sessionStorage.removeItem(RESET_KEY);
  } catch {
    // Nothing to drop.
  }
}

/** Which field names the account in calls that take `email` or `phone`. */
export function identifierPayload(to: string): { email: string } | { phone: string } {
  return to.includes("@") ? { email: to.trim() } : { phone: to.replace(/[\s\-().]/g, "") };
}

/** After a profile change, the own server's copy of the user follows (header name, SSR pages). */
export async function saveStoredUser(user: Account): Promise<void> {
  const token = readStored("token");
  if (!token) return;
  await ownServer().post("/add-user", { token, user });
}
