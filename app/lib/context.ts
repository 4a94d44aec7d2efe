import { createContext } from "react-router";
import type { CategoryNode } from "../../contract/catalogue";
import type { StoreIdentity } from "../../contract/settings";
import type { Locale } from "./locales";

/** The load context and the signed-in visitor are the edge's and the storefront's contract. */
export { shopContext, type SessionUser, type ShopContext } from "../../contract/edge";

/** Filled by the `catalogue` middleware: reads the category tree for the header, at most once per request, when first called. */
export const catalogueContext = createContext<() => Promise<CategoryNode[]>>(() => Promise.resolve([]));

/** Filled by the `catalogue` middleware: the store's name and logo, at most once per request (null: the built-in ones). */
export const storeContext = createContext<() => Promise<StoreIdentity | null>>(() => Promise.resolve(null));

/** Filled by the shop layout middleware: the locale of this request. */
export const localeContext = createContext<Locale>("en");
