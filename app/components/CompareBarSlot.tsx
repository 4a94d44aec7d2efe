import { lazy, Suspense, useSyncExternalStore } from "react";
import { COMPARE_EVENT, COMPARE_KEY, holdsPick } from "../lib/comparison-key";

const CompareBar = lazy(() => import("./CompareBar").then((m) => ({ default: m.CompareBar })));

function subscribe(listener: () => void): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key === COMPARE_KEY) listener();
  };
  window.addEventListener(COMPARE_EVENT, listener);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(COMPARE_EVENT, listener);
    window.removeEventListener("storage", onStorage);
  };
}

/**
 * Where the comparison bar goes on every page: its code loads only once this browser holds a pick
 * (or, signed in, to bring the account's), so a page without one carries none of it.
 */
export function CompareBarSlot({ signedIn }: { signedIn: boolean }) {
  const wanted = useSyncExternalStore(
    subscribe,
    () => signedIn || holdsPick(),
    () => false,
  );
  return wanted ? (
    <Suspense fallback={null}>
      <CompareBar signedIn={signedIn} />
    </Suspense>
  ) : null;
}
