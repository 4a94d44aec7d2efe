import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { useLocale, useT } from "../lib/use-locale";
import { BackIcon } from "./icons";

/** The previous route this history entry was reached from (spec §2), kept beside the router's own state. */
function historyBack(): string | null {
  const back = (window.history.state as { back?: unknown } | null)?.back;
  return typeof back === "string" && back.startsWith("/") && !back.startsWith("//") ? back : null;
}

/**
 * Records `history.state.back` on each new history entry: the path and query the visitor came
 * from. An entry revisited with the browser's own buttons keeps the one it was given.
 */
export function useHistoryBack(): void {
  const { pathname, search } = useLocation();
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const here = `${pathname}${search}`;
    const state = (window.history.state ?? {}) as Record<string, unknown>;
    if (previous.current && previous.current !== here && state.back === undefined)
      window.history.replaceState({ ...state, back: previous.current }, "");
    previous.current = here;
  }, [pathname, search]);
}

/**
 * Spec §2 "the browser back action pushes the previous route from the history state": a push of
 * `history.state.back`, or of the locale home when the page was opened directly.
 */
export function BackButton() {
  const navigate = useNavigate();
  const locale = useLocale();
  const t = useT();
  return (
    <button
      type="button"
      className="button button--ghost back-button"
      onClick={() => navigate(historyBack() ?? `/${locale}`)}
    >
      <BackIcon size={18} /> {t("app.back")}
    </button>
  );
}
