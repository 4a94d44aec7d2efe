import type { WishlistFacts } from "../../contract/wishlist";
import type { Locale } from "./locales";

/**
 * The products this browser viewed last, newest first, kept in localStorage only (never sent
 * anywhere but to read current prices): enough of each to draw its card offline (its name in the
 * languages it was seen in, image, price when viewed). The functions on values are pure, so Node
 * tests prove the order, the repeats and the cap.
 */
export const RECENTLY_VIEWED_KEY = "souq.recent";
export const MAX_RECENTLY_VIEWED = 12;

export interface ViewedProduct {
  slug: string;
  names: Partial<Record<Locale, string>>;
  image: string;
  /** Halalas, when viewed (or when last read again online). */
  price: number;
  currency: string;
  viewed_at: string;
}

const isViewed = (v: unknown): v is ViewedProduct => {
  const o = v as ViewedProduct | null;
  return (
    typeof o?.slug === "string" &&
    typeof o.image === "string" &&
    Number.isInteger(o.price) &&
    typeof o.currency === "string" &&
    typeof o.names === "object" &&
    o.names !== null
  );
};

export function parseViewed(text: string | null): ViewedProduct[] {
  try {
    const parsed = JSON.parse(text ?? "[]") as unknown;
    return Array.isArray(parsed) ? dedupe(parsed.filter(isViewed)) : [];
  } catch {
    return [];
  }
}

function dedupe(list: readonly ViewedProduct[]): ViewedProduct[] {
  const seen = new Set<string>();
  return list.filter((v) => !seen.has(v.slug) && seen.add(v.slug)).slice(0, MAX_RECENTLY_VIEWED);
}

/** A view: the product moves to the front, once, with the names seen before kept; the oldest beyond the cap go. */
export function recordView(list: readonly ViewedProduct[], view: ViewedProduct): ViewedProduct[] {
  const before = list.find((v) => v.slug === view.slug);
  const merged = before ? { ...view, names: { ...before.names, ...view.names } } : view;
  return dedupe([merged, ...list.filter((v) => v.slug !== view.slug)]);
}

/** The list to show on a product's page: every product but that one. */
export const shownBeside = (list: readonly ViewedProduct[], slug: string | undefined) =>
  list.filter((v) => v.slug !== slug);

/** Current prices and names read online, over what was stored; a product no longer sold leaves the list. */
export function refreshed(list: readonly ViewedProduct[], facts: readonly WishlistFacts[]): ViewedProduct[] {
  const bySlug = new Map(facts.map((f) => [f.slug, f]));
  return list.flatMap((v) => {
    const now = bySlug.get(v.slug);
    if (!now) return [v];
    if (!now.available) return [];
    return [{ ...v, price: now.price, currency: now.currency, image: now.image, names: { ...v.names, ...now.names } }];
  });
}

/** The name to show in a locale: that locale's, else the other one seen. */
export const viewedName = (v: Pick<ViewedProduct, "names">, locale: Locale) =>
  v.names[locale] ?? Object.values(v.names)[0] ?? "";

export function readViewed(): ViewedProduct[] {
  try {
    return parseViewed(localStorage.getItem(RECENTLY_VIEWED_KEY));
  } catch {
    return [];
  }
}

export function writeViewed(list: readonly ViewedProduct[]): void {
  try {
    if (list.length) localStorage.setItem(RECENTLY_VIEWED_KEY, JSON.stringify(list));
    else localStorage.removeItem(RECENTLY_VIEWED_KEY);
  } catch {
    // Storage refused: nothing is remembered.
  }
}
