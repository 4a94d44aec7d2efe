import { useStore } from "jotai";
import { useEffect, useRef } from "react";
import { useCart } from "../lib/cart";
import { hasChanges, writeSnapshot } from "../lib/offline-cart/store";
import { CART_SYNC_MESSAGE } from "../lib/offline-cart/sync-tag";
import { cartListAtom } from "../state/cart";

/** The offline cart's replay and display code, loaded only when a queue waits. */
const loadOfflineCart = () => import("../lib/offline-cart");

/**
 * When the cart changes made offline are replayed (lib/offline-cart): as the page starts with a
 * queue, when the browser says it is online again, and when the service worker's Background Sync
 * asks (a `sync` event posts CART_SYNC_MESSAGE to the open pages, scripts/build-sw.ts). Offline
 * with a queue, the page shows the queued cart instead. Also keeps the backend's last cart in the
 * tab while nothing waits, so an offline reload shows it. Mounted by PwaStatusLive, which loads
 * after hydration: none of this is in a page's first load.
 */
export function useOfflineCartSync(online: boolean): void {
  const { ctx } = useCart();
  const store = useStore();
  const ctxRef = useRef(ctx);
  useEffect(() => {
    ctxRef.current = ctx;
  });

  useEffect(() => {
    if (!hasChanges()) return;
    void loadOfflineCart().then((m) =>
      online ? m.replayOfflineCart(ctxRef.current) : void m.showOfflineCart(ctxRef.current),
    );
  }, [online]);

  useEffect(() => {
    const container = navigator.serviceWorker;
    if (!container) return;
    const onMessage = (event: MessageEvent) => {
      if ((event.data as { type?: unknown } | null)?.type !== CART_SYNC_MESSAGE || !hasChanges()) return;
      void loadOfflineCart().then((m) => m.replayOfflineCart(ctxRef.current));
    };
    container.addEventListener("message", onMessage);
    return () => container.removeEventListener("message", onMessage);
  }, []);

  useEffect(
    () =>
      store.sub(cartListAtom, () => {
        if (!hasChanges()) writeSnapshot(store.get(cartListAtom));
      }),
    [store],
  );
}
