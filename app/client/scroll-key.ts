import type { Location } from "react-router";

/**
 * The key `<ScrollRestoration>` saves and restores a page's scroll position under (root.tsx). A
 * native `#fragment` link (the rating's `#reviews`, the skip links, an error summary's field
 * links) makes a history entry of the browser's own, without the router's state, which the router
 * keys "default" like every other such entry: the second one would restore the place the first
 * was left at instead of showing its target. Those entries are keyed by their URL instead. Every
 * other entry keeps the router's own key, and so does the server's render (where every location
 * is "default"), so the restoring script the server writes reads the same key the page saves.
 * `import.meta.env.SSR` is a build-time constant: the browser's bundle keeps one branch.
 */
export const scrollKey = (location: Location): string =>
  !import.meta.env.SSR && location.key === "default"
    ? location.pathname + location.search + location.hash
    : location.key;
