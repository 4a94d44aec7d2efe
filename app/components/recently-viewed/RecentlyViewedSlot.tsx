import { useEffect, useState, type ComponentType } from "react";
import { whenIdle } from "../../client/idle";
import type { ViewedProduct } from "../../lib/recently-viewed";
import { loadRecentlyViewed } from "../wishlist/loaders";

type Viewing = Omit<ViewedProduct, "viewed_at">;

/**
 * Where the "Recently viewed" strip goes, below the fold: nothing in the server's HTML, and its
 * code loads once the page is idle after hydration. It records the product being viewed (on a
 * product's page) and shows the others only when there are some, so nothing above it moves.
 */
export function RecentlyViewedSlot({ viewing }: { viewing?: Viewing }) {
  const [Strip, setStrip] = useState<ComponentType<{ viewing?: Viewing }> | null>(null);
  useEffect(() => whenIdle(() => void loadRecentlyViewed().then((m) => setStrip(() => m.default))), []);
  return Strip ? <Strip viewing={viewing} /> : null;
}
