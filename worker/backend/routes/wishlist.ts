import { Hono, type Context } from "hono";
import { readInput } from "../../../contract/server/validate";
import {
  wishlistAddInput,
  wishlistFactsInput,
  wishlistMergeInput,
  wishlistRemoveInput,
} from "../../../contract/wishlist";
import type { BackendEnv } from "../env";
import { notFound, ok } from "../http";
import { requireUser } from "../identity";
import { msg } from "../messages";
import { say } from "../../../contract/server/i18n";
import { enforceLimits } from "../services/shared/rate-limit";
import { factsBySlug } from "../services/wishlist/facts";
import {
  addToWishlist,
  mergeWishlist,
  readWishlist,
  removeFromWishlist,
  revokeWishlistShare,
  shareWishlist,
  sharedWishlist,
} from "../services/wishlist/wishlist";

/**
 * The signed-in shopper's wishlist, under WISHLIST_PATH (contract/wishlist.ts): the list, add,
 * remove, merge a browser's list, and the share link. Every write is counted per account
 * (WISHLIST_LIMITER) before its body is read.
 */
export const wishlistRoutes = new Hono<BackendEnv>();

/** The caller's id, after counting the write against their account. */
async function writer(c: Context<BackendEnv>): Promise<number> {
  const userId = await requireUser(c);
  await enforceLimits(c, "WISHLIST_LIMITER", [`wishlist:user:${userId}`], msg("wishlist.tooMany"));
  return userId;
}

wishlistRoutes.get("/", async (c) => ok(c, await readWishlist(c.env.DB, c.get("lang"), await requireUser(c))));

wishlistRoutes.post("/add", async (c) => {
  const userId = await writer(c);
  const item = await readInput(c, "json", wishlistAddInput);
  return ok(c, await addToWishlist(c.env.DB, c.get("lang"), userId, item));
});

wishlistRoutes.post("/remove", async (c) => {
  const userId = await writer(c);
  const { slug } = await readInput(c, "json", wishlistRemoveInput);
  return ok(c, await removeFromWishlist(c.env.DB, c.get("lang"), userId, slug));
});

wishlistRoutes.post("/merge", async (c) => {
  const userId = await writer(c);
  const { items } = await readInput(c, "json", wishlistMergeInput);
  return ok(c, await mergeWishlist(c.env.DB, c.get("lang"), userId, items));
});

wishlistRoutes.post("/share", async (c) => ok(c, await shareWishlist(c.env.DB, await writer(c))));

wishlistRoutes.post("/share/revoke", async (c) =>
  ok(c, await revokeWishlistShare(c.env.DB, c.get("lang"), await writer(c))),
);

/**
 * Anyone's reads: the current facts of products by slug (a guest's list, recently viewed), and a
 * shared list by its link's token. Neither is cached at the edge: prices and stock move.
 */
export const publicWishlistRoutes = new Hono<BackendEnv>();

publicWishlistRoutes.post("/facts", async (c) => {
  const { items } = await readInput(c, "json", wishlistFactsInput);
  return ok(c, await factsBySlug(c.env.DB, c.get("lang"), items));
});

publicWishlistRoutes.get("/shared/:token", async (c) => {
  const list = await sharedWishlist(c.env.DB, c.get("lang"), c.req.param("token"));
  if (!list) throw notFound(say(c.get("lang"), msg("wishlist.notFound")));
  c.header("x-robots-tag", "noindex");
  return ok(c, list);
});
