import { data, isRouteErrorResponse } from "react-router";
import type { ShopChromeData } from "../components/ShopChrome";

/**
 * A console path for a visitor who is not staff: the console does not exist for them, so it is the
 * shop's unmatched-route 404 (spec §8 'Page not found: {path}', the path as the URL has it), in the
 * shop's frame (`shop`: what its header needs).
 */
export type ShopNotFound = { detail: string; shop: ShopChromeData };

export const shopNotFoundResponse = (path: string, shop: ShopChromeData) =>
  data<ShopNotFound>({ detail: `Page not found: ${path}`, shop }, { status: 404, statusText: "Not Found" });

/** The stranger's 404 of `shopNotFoundResponse`, when that is what a route threw (the root's boundary renders it). */
export function shopNotFoundOf(error: unknown): ShopNotFound | null {
  if (!isRouteErrorResponse(error) || error.status !== 404) return null;
  const payload: unknown = error.data;
  return payload && typeof payload === "object" && "shop" in payload && "detail" in payload
    ? (payload as ShopNotFound)
    : null;
}
