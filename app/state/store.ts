import { createStore } from "jotai";

type Store = ReturnType<typeof createStore>;

let browser: Store | undefined;

/**
 * The page's jotai store. In the browser it is one store for the page's life, so route
 * `clientLoader`s (the layout's cart read, the profile's user) write the same atoms the components
 * read. On the server it is undefined: each render's <Provider> makes its own, so no visitor's
 * state is shared with another's request.
 */
export function browserStore(): Store | undefined {
  if (typeof document === "undefined") return undefined;
  browser ??= createStore();
  return browser;
}
