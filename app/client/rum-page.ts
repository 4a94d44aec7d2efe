import type { RumPageType } from "../../contract/rum.ts";

/**
 * The page types field data is reported under: a small set, so a figure never names a
 * product, a category or a visitor. Every storefront route has one (test/e2e/rum.e2e.ts walks the
 * built route table); the operator console's routes have none and report nothing.
 */
/** The kind of page a route is, or null for a page that reports nothing (the operator console). */
export function pageTypeOf(routeId: string, search: string): RumPageType | null {
  const id = routeId.replace(/^routes\//, "");
  if (/^admin[/-]/.test(id)) return null;
  if (id === "home" || id === "home-default") return "home";
  if (id === "products") return new URLSearchParams(search).get("q")?.trim() ? "search" : "list";
  if (id === "product-details.$slug") return "product";
  if (id === "shopping-cart") return "cart";
  if (/^(checkout|proceed-payement|payment-status|order\.checkout\.status)$/.test(id)) return "checkout";
  if (/^(auth\.|profile\/|orders$|track-order$|order\.invoice$|order\.credit-note$)/.test(id)) return "account";
  if (/^(page\.|services\.|about-us$|contact-us$|privacy-policy$)/.test(id)) return "content";
  return "other";
}
