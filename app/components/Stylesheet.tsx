import { preinit } from "react-dom";
import { useNonce } from "../lib/nonce";

/**
 * The shop's stylesheets are React stylesheet resources (`<link rel="stylesheet" precedence>`), so
 * React's server renderer writes them at the top of the document's head, before the module
 * preloads React Router's `<Scripts>` hoists there: over HTTP/1.1 the browser asks for the
 * render-blocking CSS before 150 KB of JavaScript (docs/PERFORMANCE.md, "First paint under
 * simulated slow 4G"). React also dedupes them by href, leaves them alone at hydration, and on a
 * client navigation holds the new page back until its sheets have loaded (no unstyled flash);
 * it never removes one.
 *
 * Two precedences, in cascade order. React orders precedence groups as it first meets them: the
 * root layout declares `base` (app.css: tokens, reset, shared components) as the first thing in
 * `<head>`, so it comes first on every page, server-rendered or navigated to, and every area
 * sheet overrides it as before. `area` holds the sheets of the shop's areas (catalogue, cart,
 * account, console, ...), in the order React meets them. That order varies with the page and with
 * the pages visited before (sheets stay once loaded), so area sheets must not depend on it: each
 * styles its own blocks, and where two style the same class (the console's outlined danger
 * button, the account's filled one) the narrower one says so with a scoped selector.
 */
export type Precedence = "base" | "area";

/**
 * Declares that the component rendering it needs the stylesheet at `href` (a `?url` import of a
 * file in app/styles). Render it wherever the styled markup is rendered, in every variant the
 * server can render (page, hydrate fallback, error), so the sheet is in the first response.
 */
export function Stylesheet({ href, precedence = "area" }: { href: string; precedence?: Precedence }) {
  // CSP allows the shop's own stylesheets ('self'); the nonce keeps them marked as the page's own,
  // as React Router's <Links> did. In the browser it is undefined (browsers hide it).
  const nonce = useNonce();
  return <link rel="stylesheet" href={href} precedence={precedence} nonce={nonce} />;
}

/**
 * Inserts an area stylesheet from outside rendering (an idle callback, an event), as a resource
 * React knows: a later `<Stylesheet>` with the same href reuses it instead of loading it again.
 */
export function loadStylesheet(href: string): void {
  preinit(href, { as: "style", precedence: "area" satisfies Precedence });
}
