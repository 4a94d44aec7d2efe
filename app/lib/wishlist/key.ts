/**
 * Where this browser keeps the wishlist and the event its change sends: apart from the list's
 * logic (local.ts), so the hearts and the header's count read it without loading that code (the
 * header puts this module in every page's first load, so it stays this small).
 */
export const WISHLIST_KEY = "souq.wishlist";
export const WISHLIST_EVENT = "souq:wishlist";

let raw: string | null | undefined;
let slugs: string[] = [];

/** The slugs this browser holds, read again only when the stored text changed. */
export function savedSlugs(): string[] {
  let now: string | null = null;
  try {
    now = localStorage.getItem(WISHLIST_KEY);
  } catch {
    // Storage blocked: nothing saved.
  }
  if (now !== raw) {
    raw = now;
    try {
      slugs = (JSON.parse(now ?? "") as { items: { slug: string }[] }).items.map((i) => i.slug);
    } catch {
      slugs = [];
    }
  }
  return slugs;
}

/** Calls `listener` on every change of the list, in this tab or another (any storage change: a cheap read). */
export function onWishlist(listener: () => void): () => void {
  addEventListener(WISHLIST_EVENT, listener);
  addEventListener("storage", listener);
  return () => {
    removeEventListener(WISHLIST_EVENT, listener);
    removeEventListener("storage", listener);
  };
}
