import { memo, startTransition, useEffect, useState } from "react";
import { createPortal } from "react-dom";
import { PrefetchPageLinks, useLocation } from "react-router";
import { whenIdle } from "./idle";
import { copyLinksToHead, prefetchQueue, watchLinksIn } from "./prefetch";

/**
 * Each page's links render once: adding a page to the list must not render the ones before it
 * again (their props never change).
 */
const PageLinks = memo(PrefetchPageLinks);

/**
 * Renders React Router's `<PrefetchPageLinks>` for the pages client/prefetch.ts hands over, one
 * per idle period, as a transition (React yields while it renders them). Mounted once, in the
 * root; in the first idle period after hydration it starts watching every shop link of the
 * document (`watchLinksIn`), so prefetching is on by default. The pages found on an earlier
 * location are dropped when the location changes, so a navigation never prefetches them again
 * against the new page.
 *
 * The links render through a portal into an inert document, whose head React hoists them into
 * and where they fetch nothing; `copyLinksToHead` brings them into this document's head a few per
 * idle period. Rendered here, one commit inserted every link a page names, each starting its
 * request, in one long task.
 */
export function Prefetcher({ nonce }: { nonce?: string }) {
  const { pathname, search } = useLocation();
  const here = pathname + search;
  const [pages, setPages] = useState<{ page: string; from: string }[]>([]);

  useEffect(() => {
    let stop: (() => void) | undefined;
    const cancel = whenIdle(() => (stop = watchLinksIn(document.body)));
    return () => {
      cancel();
      stop?.();
    };
  }, []);

  // Made in the browser only; on the server, and while no page is prefetched, nothing renders.
  const [inert] = useState(() =>
    typeof document === "undefined" ? null : document.implementation.createHTMLDocument(""),
  );
  useEffect(() => (inert ? copyLinksToHead(inert.head) : undefined), [inert]);

  useEffect(
    () =>
      prefetchQueue.subscribe((page, from) =>
        startTransition(() => setPages((list) => [...list.filter((p) => p.from === from), { page, from }])),
      ),
    [],
  );

  const links = pages
    .filter((p) => p.from === here)
    .map((p) => <PageLinks key={p.page} page={p.page} nonce={nonce} data-prefetch="" />);
  return inert && links.length > 0 ? createPortal(links, inert.body) : null;
}
