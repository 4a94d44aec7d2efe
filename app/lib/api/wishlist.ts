import {
  WISHLIST_FACTS_PATH,
  WISHLIST_PATH,
  WISHLIST_SHARED_PATH,
  type SharedWishlist,
  type Wishlist,
  type WishlistFacts,
  type WishlistShare,
} from "../../../contract/wishlist";
import type { Api } from "./client";

/**
 * The wishlist's calls (contract/wishlist.ts): the signed-in shopper's list and its share link,
 * the current facts of products by slug (a guest's list, recently viewed), and a shared list.
 */

export const getWishlist = (api: Api) => api.get<Wishlist>(WISHLIST_PATH);

export const addToWishlist = (api: Api, slug: string, variantId: number | null) =>
  api.post<Wishlist>(`${WISHLIST_PATH}/add`, { slug, variant_id: variantId });

export const removeFromWishlist = (api: Api, slug: string) => api.post<Wishlist>(`${WISHLIST_PATH}/remove`, { slug });

export const mergeWishlist = (api: Api, items: { slug: string; variant_id: number | null; saved_at: string }[]) =>
  api.post<Wishlist>(`${WISHLIST_PATH}/merge`, { items });

export const shareWishlist = (api: Api) => api.post<WishlistShare>(`${WISHLIST_PATH}/share`);

export const revokeWishlistShare = (api: Api) => api.post<Wishlist>(`${WISHLIST_PATH}/share/revoke`);

export const wishlistFacts = (api: Api, items: { slug: string; variant_id: number | null }[]) =>
  api.post<WishlistFacts[]>(WISHLIST_FACTS_PATH, { items });

export const getSharedWishlist = (api: Api, token: string) =>
  api.get<SharedWishlist>(`${WISHLIST_SHARED_PATH}/${encodeURIComponent(token)}`);
