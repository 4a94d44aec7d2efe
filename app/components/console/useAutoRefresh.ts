import { useEffect } from "react";
import { useRevalidator } from "react-router";

/**
 * Reloads the page's data every `everyMs` while the tab is visible, and at once when it becomes
 * visible again: a list staff leave open (new orders) stays current without a reload. Nothing is
 * fetched from a hidden tab, and a reload already under way is not doubled.
 */
export function useAutoRefresh(everyMs = 60_000): void {
  const revalidator = useRevalidator();
  useEffect(() => {
    const refresh = () => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") void revalidator.revalidate();
    };
    const timer = window.setInterval(refresh, everyMs);
    document.addEventListener("visibilitychange", refresh);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", refresh);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the revalidator's identity changes with its state; the timer reads it fresh
  }, [everyMs]);
}
