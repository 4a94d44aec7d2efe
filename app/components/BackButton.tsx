import { useNavigate } from "react-router";
import { useLocale, useT } from "../lib/use-locale";
import { BackIcon } from "./icons";

/** Browser back: returns to the previous route from the history state, or home when there is none. */
export function BackButton() {
  const navigate = useNavigate();
  const locale = useLocale();
  const t = useT();
  return (
    <button
      type="button"
      className="button button--ghost back-button"
      onClick={() => {
        const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
        if (idx > 0) navigate(-1);
        else navigate(`/${locale}`);
      }}
    >
      <BackIcon size={18} /> {t("app.back")}
    </button>
  );
}
