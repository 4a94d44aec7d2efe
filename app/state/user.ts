import { atom } from "jotai";
import type { SessionUser } from "../lib/context";

/**
 * Who the visitor is, in the browser (spec §4 "Visitor identity"). The token and ids live in
 * session storage (app/lib/tab-storage.ts); these atoms hold the signed-in user for the UI.
 * `undefined` means not known yet (before the own server answered), `null` a guest.
 */
export const currentUserAtom = atom<SessionUser | null | undefined>(undefined);

export const signedInAtom = atom((get) => {
  const user = get(currentUserAtom);
  return user === undefined ? undefined : user !== null;
});
