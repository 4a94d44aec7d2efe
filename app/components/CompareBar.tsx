import { useEffect } from "react";
import { clearCompared, compareSearch, useComparison } from "../lib/comparison";
import { Link } from "../lib/link";
import { readStored } from "../lib/tab-storage";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";

/**
 * The pick's bar at the foot of every shop page while it holds a product: how many, a link to
 * the comparison page and a way to clear it. Nothing on the server (the pick is this browser's),
 * so a cached page is the same for everyone and the bar appears once the page runs. Signed in,
 * it also keeps the pick with the account.
 */
export function CompareBar({ signedIn }: { signedIn: boolean }) {
  const t = useT();
  const to = useLocalePath();
  const locale = useLocale();
  const { items } = useComparison();
  // Signed in: the pick is kept with the account too (loaded for them only).
  useEffect(() => {
    if (!signedIn || !readStored("token")) return;
    let stop: (() => void) | undefined;
    let live = true;
    void import("../lib/comparison-sync").then((m) => {
      if (live) stop = m.syncComparison(locale);
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [signedIn, locale]);
  if (items.length === 0) return null;
  return (
    <aside className="compare-bar" aria-label={t("compare.barLabel")}>
      <Link className="button button--primary" to={`${to("/compare")}${compareSearch(items.map((i) => i.slug))}`}>
        {t("compare.bar", { count: items.length })}
      </Link>
      <button type="button" className="button button--ghost" onClick={clearCompared}>
        {t("compare.clear")}
      </button>
    </aside>
  );
}
