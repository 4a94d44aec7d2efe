import { startTransition, useEffect, useState } from "react";
import { PrefetchPageLinks, useLocation } from "react-router";
import { prefetchQueue } from "./prefetch";

/**
 * Renders React Router's `<PrefetchPageLinks>` for the pages client/prefetch.ts hands over, one
 * per idle period, as a transition (React yields while it renders them). Mounted once, in the
 * root. The pages found on an earlier location are dropped when the location changes, so a
 * navigation never prefetches them again against the new page.
 */
export function Prefetcher({ nonce }: { nonce?: string }) {
  const { pathname, search } = useLocation();
  const here = pathname + search;
  const [pages, setPages] = useState<{ page: string; from: string }[]>([]);

  useEffect(
    () =>
      prefetchQueue.subscribe((page, from) =>
        startTransition(() => setPages((list) => [...list.filter((p) => p.from === from), { page, from }])),
      ),
    [],
  );

  return pages
    .filter((p) => p.from === here)
    .map((p) => <PrefetchPageLinks key={p.page} page={p.page} nonce={nonce} data-prefetch="" />);
}
