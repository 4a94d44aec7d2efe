import { MAX_WISHLIST, type WishlistItem } from "../../../contract/wishlist";
import type { Locale } from "../locales";
import { WISHLIST_EVENT, WISHLIST_KEY } from "./key";

/**
 * The wishlist as this browser keeps it (localStorage), so it works offline and without an
 * account. A guest's list is theirs alone (`owner` null). Signed in, it mirrors the account's
 * (`owner` the user id) and holds the changes made while the backend could not be reached
 * (`pending`, sent by sync.ts when the connection returns). The functions on values are pure, so
 * Node tests prove the merge, the order and the caps.
 */

/** A saved product, with enough to show it offline. */
export interface LocalItem {
  slug: string;
  /** The variant chosen on the product's page when it was saved, if any. */
  variant_id: number | null;
  saved_at: string;
  /** Halalas, and stock, when it was saved. */
  saved_price: number;
  saved_in_stock: boolean;
  currency: string;
  image: string;
  /** The name in the languages it was seen in. */
  names: Partial<Record<Locale, string>>;
}

/** A change made signed in that the account has not taken yet; the last one per product counts. */
export type PendingChange =
  { op: "add"; slug: string; variant_id: number | null; saved_at: string } | { op: "remove"; slug: string };

export interface LocalWishlist {
  /** The account the list mirrors (its user id), or null for a guest's own list. */
  owner: string | null;
  /** Newest first, one per product, at most MAX_WISHLIST. */
  items: LocalItem[];
  pending: PendingChange[];
}

export const EMPTY_WISHLIST: LocalWishlist = { owner: null, items: [], pending: [] };

const isItem = (i: unknown): i is LocalItem => {
  const o = i as LocalItem | null;
  return (
    typeof o?.slug === "string" &&
    typeof o.saved_at === "string" &&
    Number.isInteger(o.saved_price) &&
    typeof o.names === "object" &&
    o.names !== null
  );
};

/** A stored text as a list; anything malformed is dropped rather than trusted. */
export function parseWishlist(text: string | null): LocalWishlist {
  try {
    const parsed = JSON.parse(text ?? "null") as Partial<LocalWishlist> | null;
    if (!parsed || typeof parsed !== "object") return EMPTY_WISHLIST;
    const items = Array.isArray(parsed.items) ? parsed.items.filter(isItem) : [];
    const pending = Array.isArray(parsed.pending)
      ? parsed.pending.filter((p) => (p?.op === "add" || p?.op === "remove") && typeof p.slug === "string")
      : [];
    return {
      owner: typeof parsed.owner === "string" ? parsed.owner : null,
      items: ordered(items),
      pending,
    };
  } catch {
    return EMPTY_WISHLIST;
  }
}

/** Newest first, one per product (the earliest saved time of a repeat), at most the cap. */
export function ordered(items: readonly LocalItem[]): LocalItem[] {
  const bySlug = new Map<string, LocalItem>();
  for (const item of items) {
    const held = bySlug.get(item.slug);
    if (!held) bySlug.set(item.slug, item);
    else if (item.saved_at < held.saved_at)
      bySlug.set(item.slug, { ...held, ...item, names: { ...held.names, ...item.names } });
    else bySlug.set(item.slug, { ...held, names: { ...item.names, ...held.names } });
  }
  return [...bySlug.values()]
    .sort((a, b) => (a.saved_at < b.saved_at ? 1 : a.saved_at > b.saved_at ? -1 : 0))
    .slice(0, MAX_WISHLIST);
}

/** Whether the list holds the product. */
export const holds = (list: LocalWishlist, slug: string) => list.items.some((i) => i.slug === slug);

/** What toggling a product did: saved, taken out, or refused as the list is full. */
export type ToggleOutcome = "added" | "removed" | "full";

/**
 * Saves the product, or takes it out when it is in. Signed in (`owner` set), the change is also
 * queued for the account until sync.ts sends it; a later change of the same product replaces it.
 */
export function toggleItem(list: LocalWishlist, item: LocalItem): { list: LocalWishlist; outcome: ToggleOutcome } {
  const pendingOf = (change: PendingChange) =>
    list.owner === null ? list.pending : [...list.pending.filter((p) => p.slug !== item.slug), change];
  if (holds(list, item.slug)) {
    return {
      list: {
        ...list,
        items: list.items.filter((i) => i.slug !== item.slug),
        pending: pendingOf({ op: "remove", slug: item.slug }),
      },
      outcome: "removed",
    };
  }
  if (list.items.length >= MAX_WISHLIST) return { list, outcome: "full" };
  return {
    list: {
      ...list,
      items: ordered([item, ...list.items]),
      pending: pendingOf({ op: "add", slug: item.slug, variant_id: item.variant_id, saved_at: item.saved_at }),
    },
    outcome: "added",
  };
}

/**
 * Two lists as one: the union, each product keeping its earlier saved time (and the facts saved
 * with it), newest first, at most the cap.
 */
export function mergeItems(a: readonly LocalItem[], b: readonly LocalItem[]): LocalItem[] {
  return ordered([...a, ...b]);
}

/** The account's list as this browser keeps it: the account's facts, names added to those already seen. */
export function mirrorAccount(
  list: LocalWishlist,
  owner: string,
  items: readonly WishlistItem[],
  locale: Locale,
): LocalWishlist {
  const seen = new Map(list.items.map((i) => [i.slug, i.names]));
  return {
    owner,
    // Changes still unsent stay on top of what the account answered.
    pending: list.owner === owner ? list.pending : [],
    items: applyPending(
      ordered(
        items.map((i) => ({
          slug: i.slug,
          variant_id: i.variant_id,
          saved_at: i.saved_at,
          saved_price: i.saved_price,
          saved_in_stock: i.saved_in_stock,
          currency: i.currency,
          image: i.image,
          names: { ...seen.get(i.slug), ...i.names, [locale]: i.name },
        })),
      ),
      list.owner === owner ? list.pending : [],
      list.items,
    ),
  };
}

/** The account's items with the changes it has not taken yet applied over them. */
function applyPending(items: LocalItem[], pending: readonly PendingChange[], local: readonly LocalItem[]): LocalItem[] {
  let out = items;
  for (const change of pending) {
    if (change.op === "remove") out = out.filter((i) => i.slug !== change.slug);
    else if (!out.some((i) => i.slug === change.slug)) {
      const kept = local.find((i) => i.slug === change.slug);
      if (kept) out = ordered([kept, ...out]);
    }
  }
  return out;
}

/** Drops the changes the account has taken (those sent, by product). */
export function withoutPending(list: LocalWishlist, sent: readonly PendingChange[]): LocalWishlist {
  return { ...list, pending: list.pending.filter((p) => !sent.includes(p)) };
}

// The browser's copy, parsed again only when the stored text changed (another tab wrote it).

let current: LocalWishlist = EMPTY_WISHLIST;
let currentText: string | null = null;
let storageWorks = true;

export function readWishlist(): LocalWishlist {
  if (!storageWorks) return current;
  let text: string | null;
  try {
    text = localStorage.getItem(WISHLIST_KEY);
  } catch {
    return current;
  }
  if (text !== currentText) {
    currentText = text;
    current = parseWishlist(text);
  }
  return current;
}

export function writeWishlist(next: LocalWishlist): void {
  current = next;
  try {
    if (next.items.length || next.pending.length || next.owner) {
      currentText = JSON.stringify(next);
      localStorage.setItem(WISHLIST_KEY, currentText);
    } else {
      currentText = null;
      localStorage.removeItem(WISHLIST_KEY);
    }
    storageWorks = true;
  } catch {
    // Storage refused (private mode, full): the list lasts as long as the page.
    storageWorks = false;
  }
  dispatchEvent(new Event(WISHLIST_EVENT));
}
