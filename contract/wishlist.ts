// The wishlist: a signed-in shopper's saved products, kept with the account, with the price and
// availability each had when it was saved, and a revocable read-only link to share them. A
// guest's list stays in the browser (app/lib/wishlist/); these calls also give a guest the current
// facts of the products they saved. Part of the contract between the storefront and the backend
// (DESIGN §6, §10): both sides import it, and it imports only valibot.
import * as v from "valibot";
import type { InputMessages } from "./inputs";

/** The signed-in calls: GET the list; POST add, remove, merge; POST share and share/revoke. */
export const WISHLIST_PATH = "/client/wishlist";
/** POST: the current facts of products by slug, for anyone (a guest's list, recently viewed). */
export const WISHLIST_FACTS_PATH = "/wishlist/facts";
/** GET `/wishlist/shared/{token}`: a shared list, read-only, for anyone holding the link. */
export const WISHLIST_SHARED_PATH = "/wishlist/shared";

/** At most this many products in one list (the account's and the browser's alike). */
export const MAX_WISHLIST = 200;

/** A share link's token: 43 base64url characters (256 random bits). */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const SLUG = /^[a-z0-9][a-z0-9-]{0,119}$/;

/** What a product is now: the facts a list shows beside what was saved. */
export interface WishlistFacts {
  slug: string;
  product_id: number;
  /** The variant saved with the product (chosen on its page), or null for the product as a whole. */
  variant_id: number | null;
  /** The name in the request's language, and in both (so a browser can show it in either offline). */
  name: string;
  names: { en: string; ar: string };
  /** The variant's values ("Blue, 256 GB"), when one was saved. */
  variant_title: string | null;
  /** The saved variant's values by option code, for its page's URL (`?colour=blue&storage=256gb`). */
  variant_options: Record<string, string> | null;
  image: string;
  /** Halalas: the variant's price when one was saved, else the product's. */
  price: number;
  compare_at_price: number | null;
  currency: string;
  in_stock: boolean;
  /** False when the product (or its saved variant) is no longer sold: hidden by staff or removed. */
  available: boolean;
  /** How many variants a shopper chooses from; a product of several without a saved one opens its page to choose. */
  variant_count: number;
}

/** One saved product of an account: what it is now, and what it was when it was saved. */
export interface WishlistItem extends WishlistFacts {
  /** ISO time it was first saved (a merge keeps the earlier of two). */
  saved_at: string;
  /** Halalas, and whether it was in stock, when it was saved. */
  saved_price: number;
  saved_in_stock: boolean;
}

/** GET WISHLIST_PATH (and every write's answer): the list, newest first, and whether a share link is live. */
export interface Wishlist {
  items: WishlistItem[];
  shared: boolean;
}

/** POST `${WISHLIST_PATH}/share`: the new link's token (the old one stops working). */
export interface WishlistShare {
  token: string;
}

/** A shared list as anyone with the link sees it: the owner's first name at most, and what each product is now. */
export interface SharedWishlist {
  owner: string | null;
  items: WishlistFacts[];
}

/** What changed for a saved product since it was saved, in the order a page says it. */
export type WishlistChange =
  | { kind: "gone" }
  | { kind: "price_dropped"; from: number; to: number }
  | { kind: "price_rose"; from: number; to: number }
  | { kind: "back_in_stock" }
  | { kind: "sold_out" };

/** The changes worth telling between what was saved and what the product is now. */
export function wishlistChanges(
  saved: { price: number; in_stock: boolean },
  now: Pick<WishlistFacts, "price" | "in_stock" | "available">,
): WishlistChange[] {
  if (!now.available) return [{ kind: "gone" }];
  const changes: WishlistChange[] = [];
  if (now.price < saved.price) changes.push({ kind: "price_dropped", from: saved.price, to: now.price });
  else if (now.price > saved.price) changes.push({ kind: "price_rose", from: saved.price, to: now.price });
  if (now.in_stock && !saved.in_stock) changes.push({ kind: "back_in_stock" });
  else if (!now.in_stock && saved.in_stock) changes.push({ kind: "sold_out" });
  return changes;
}

function slugField(m: InputMessages) {
  return v.pipe(
    v.optional(v.string(m.required("slug")), ""),
    v.nonEmpty(m.required("slug")),
    v.regex(SLUG, m.invalid("slug")),
  );
}

function variantField(m: InputMessages) {
  return v.optional(
    v.nullable(
      v.pipe(
        v.number(m.invalid("variant_id")),
        v.integer(m.invalid("variant_id")),
        v.minValue(1, m.invalid("variant_id")),
      ),
    ),
    null,
  );
}

/** POST `${WISHLIST_PATH}/add`: a product by slug, with the variant chosen on its page if any. */
export function wishlistAddInput(m: InputMessages) {
  return v.object({ slug: slugField(m), variant_id: variantField(m) });
}

/** POST `${WISHLIST_PATH}/remove`: a product by slug (with whichever variant it was saved). */
export function wishlistRemoveInput(m: InputMessages) {
  return v.object({ slug: slugField(m) });
}

/**
 * POST `${WISHLIST_PATH}/merge`: a browser's list (a guest's, on sign-in, or adds made offline),
 * joined to the account's: the union, each product keeping the earlier of its two saved times.
 * A time in the future counts as now.
 */
export function wishlistMergeInput(m: InputMessages) {
  return v.object({
    items: v.pipe(
      v.optional(
        v.array(
          v.object({
            slug: slugField(m),
            variant_id: variantField(m),
            saved_at: v.optional(v.pipe(v.string(m.invalid("slugs")), v.isoTimestamp(m.invalid("slugs")))),
          }),
          m.required("slugs"),
        ),
        [],
      ),
      v.maxLength(MAX_WISHLIST, m.invalid("slugs")),
    ),
  });
}

/** POST WISHLIST_FACTS_PATH: the products to read, by slug, each with its saved variant if any. */
export function wishlistFactsInput(m: InputMessages) {
  return v.object({
    items: v.pipe(
      v.optional(v.array(v.object({ slug: slugField(m), variant_id: variantField(m) }), m.required("slugs")), []),
      v.maxLength(MAX_WISHLIST, m.invalid("slugs")),
    ),
  });
}
