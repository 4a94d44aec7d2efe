import { useNavigate } from "react-router";
import { historyBack } from "../client/tab-start";
import { useLocale, useT } from "../lib/use-locale";
import { BackIcon } from "./icons";

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
