import { INVITATION_FRAGMENT_KEY } from "../../contract/staff-invitations";
import { storage } from "./tab-storage";

/**
 * The link's token, kept in this tab's session storage while the invitee signs in or creates an
 * account (the sign-in pages come back to this page's path, without its fragment).
 */
const TOKEN_KEY = "staffInvitation";

export function keepInvitationToken(token: string | null): void {
  try {
    if (token === null) storage()?.removeItem(TOKEN_KEY);
    else storage()?.setItem(TOKEN_KEY, token);
  } catch {
    // Storage blocked: the invitee opens the link again after signing in.
  }
}

/**
 * The token from the link's fragment (`#invitation=`), taken out of the address at once so it is
 * left in no address bar, history entry or bookmark; else the one this tab kept.
 */
export function takeInvitationToken(): string | null {
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const fromLink = fragment.get(INVITATION_FRAGMENT_KEY);
  if (fromLink !== null) {
    const { pathname, search } = window.location;
    window.history.replaceState(window.history.state, "", pathname + search);
    keepInvitationToken(fromLink);
    return fromLink;
  }
  try {
    return storage()?.getItem(TOKEN_KEY) ?? null;
  } catch {
    return null;
  }
}
