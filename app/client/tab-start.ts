import { useStore } from "jotai";
import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { readStored } from "../lib/tab-storage";
import { whenIdle } from "./idle";

/**
 * What the shop's layout does in every tab, kept out of its first load (the budget counts every
 * byte the layout imports): the previous route of each history entry, and the stored user.
 */

/** The previous route this history entry was reached from (spec §2), kept beside the router's own state. */
export function historyBack(): string | null {
  const back = (window.history.state as { back?: unknown } | null)?.back;
  return typeof back === "string" && back.startsWith("/") && !back.startsWith("//") ? back : null;
}

/**
 * Records `history.state.back` on each new history entry: the path and query the visitor came
 * from. An entry revisited with the browser's own buttons keeps the one it was given.
 */
export function useHistoryBack(): void {
  const { pathname, search } = useLocation();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const here = `${pathname}${search}`;
    const state = (window.history.state ?? {}) as Record<string, unknown>;
    if (previous.current && previous.current !== here && state.back === undefined)
      window.history.replaceState({ ...state, back: previous.current }, "");
    previous.current = here;
  }, [pathname, search]);
}

/**
 * Spec §7 `GET /api/get-user` when a tab holding a token starts (lib/identity.ts
 * `restoreStoredUser`), loaded and run once the page is idle: a tab without a token loads nothing.
 */
export function useStoredUser(): void {
  const store = useStore();
  useEffect(() => {
    if (!readStored("token")) return;
    return whenIdle(() => void import("../lib/identity").then((m) => m.restoreStoredUser(store)));
  }, [store]);
}
