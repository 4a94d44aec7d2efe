import { useSyncExternalStore } from "react";
import { MAX_COMPARED } from "../../contract/comparison";
import { COMPARE_EVENT, COMPARE_KEY } from "./comparison-key";

/**
 * The products a shopper picked to compare: at most MAX_COMPARED, all of one top-level category
 * (`group`), kept in this browser's localStorage so the pick survives reloads and tabs. The
 * comparison page itself reads only its URL (`/compare?p=a,b,c`), so a shared link shows the same
 * comparison to anyone; the pick is what builds that link.
 */
export { MAX_COMPARED };
const KEY = COMPARE_KEY;

export interface ComparedItem {
  slug: string;
  name: string;
}
export interface Comparison {
  /** The top-level category's slug the picked products belong to. */
  group: string;
  items: ComparedItem[];
}

const EMPTY: Comparison = { group: "", items: [] };
const listeners = new Set<() => void>();
let current: Comparison | undefined;

function read(): Comparison {
  if (current) return current;
  try {
    const parsed = JSON.parse(localStorage.getItem(KEY) ?? "null") as Partial<Comparison> | null;
    const items = Array.isArray(parsed?.items)
      ? parsed.items
          .filter((i): i is ComparedItem => typeof i?.slug === "string" && typeof i?.name === "string")
          .slice(0, MAX_COMPARED)
      : [];
    current = items.length && typeof parsed?.group === "string" ? { group: parsed.group, items } : EMPTY;
  } catch {
    current = EMPTY;
  }
  return current;
}

function write(next: Comparison): void {
  current = next.items.length ? next : EMPTY;
  try {
    if (current.items.length) localStorage.setItem(KEY, JSON.stringify(current));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode, full): the pick lasts as long as the page.
  }
  for (const listener of listeners) listener();
  // The page's bar slot (components/CompareBarSlot.tsx) loads the bar on the first pick.
  window.dispatchEvent(new Event(COMPARE_EVENT));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab's pick: read again.
  const onStorage = (e: StorageEvent) => {
    if (e.key !== KEY) return;
    current = undefined;
    listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

/** The pick now (outside React: the account's copy, lib/comparison-sync.ts). */
export const currentComparison = (): Comparison => read();

/** Calls `listener` after every change of the pick made in this tab. */
export function onComparisonChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The pick, as this browser holds it; empty on the server and until hydration. */
export const useComparison = (): Comparison => useSyncExternalStore(subscribe, read, () => EMPTY);

/** What adding a product did: added, removed, refused as full, or a new pick for another category. */
export type ToggleResult = "added" | "removed" | "full" | "restarted";

/**
 * Adds the product to the pick, or takes it out when it is in. A product of another category
 * starts a new pick with it (a comparison aligns one kind of product); a full pick refuses it.
 */
export function toggleCompared(item: ComparedItem, group: string): ToggleResult {
  const pick = read();
  if (pick.items.some((i) => i.slug === item.slug)) {
    write({ group: pick.group, items: pick.items.filter((i) => i.slug !== item.slug) });
    return "removed";
  }
  if (pick.items.length && pick.group !== group) {
    write({ group, items: [item] });
    return "restarted";
  }
  if (pick.items.length >= MAX_COMPARED) return "full";
  write({ group, items: [...pick.items, item] });
  return "added";
}

export function clearCompared(): void {
  write(EMPTY);
}

/** Keeps the pick in step with a comparison page's own products (a removal there, a shared link opened). */
export function setCompared(pick: Comparison): void {
  const now = read();
  if (now.group === pick.group && now.items.map((i) => i.slug).join() === pick.items.map((i) => i.slug).join()) return;
  write(pick);
}

/** The comparison page's search for these slugs (`?p=a,b,c`), commas kept as they are. */
export const compareSearch = (slugs: readonly string[], diffOnly = false) =>
  `?p=${slugs.map(encodeURIComponent).join(",")}${diffOnly ? "&diff=1" : ""}`;
