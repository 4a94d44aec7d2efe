import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { Form, useLocation, useNavigate } from "react-router";
import { browserApi } from "../lib/api/browser";
import { suggestProducts } from "../lib/api/catalogue";
import type { Suggestion } from "../lib/catalogue";
import { formatMoney } from "../lib/money";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "./Stylesheet";
import searchCss from "../styles/search.css?url";

const DEBOUNCE_MS = 200;
const MIN_CHARS = 2;

/**
 * The header search: a GET form to the product list (works without JavaScript) that, with
 * JavaScript, suggests products as the shopper types. It follows the WAI-ARIA 1.2 combobox
 * pattern: the input owns a listbox, the active option is `aria-activedescendant`, ArrowUp/Down
 * move, Enter picks (or searches when nothing is active), Escape closes and then clears.
 */
export function SearchBox() {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const navigate = useNavigate();
  const location = useLocation();
  const listId = useId();
  const statusId = useId();
  const [value, setValue] = useState(() => new URLSearchParams(location.search).get("q") ?? "");
  const [items, setItems] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [settled, setSettled] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inflight = useRef<AbortController | null>(null);

  // Close the list on navigation and show the searched words on the product list.
  useEffect(() => {
    setOpen(false);
    setActive(-1);
    if (location.pathname.endsWith("/products")) setValue(new URLSearchParams(location.search).get("q") ?? "");
  }, [location.pathname, location.search]);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inflight.current?.abort();
    },
    [],
  );

  const fetchSuggestions = (q: string) => {
    clearTimeout(timer.current);
    inflight.current?.abort();
    if (q.trim().length < MIN_CHARS) {
      setItems([]);
      setOpen(false);
      setActive(-1);
      return;
    }
    timer.current = setTimeout(() => {
      const controller = new AbortController();
      inflight.current = controller;
      suggestProducts(browserApi(locale), q.trim(), controller.signal)
        .then((res) => {
          if (controller.signal.aborted) return;
          setItems((res.data ?? []).slice(0, 8));
          setActive(-1);
          setSettled(true);
          setOpen(true);
        })
        .catch(() => {
          // Suggestions are a convenience: a failed or aborted call leaves the plain search.
          if (!controller.signal.aborted) {
            setItems([]);
            setOpen(false);
          }
        });
    }, DEBOUNCE_MS);
  };

  const pick = (s: Suggestion) => {
    setOpen(false);
    setActive(-1);
    void navigate(to(`/product-details/${encodeURIComponent(s.slug)}`));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case "ArrowDown":
        if (!items.length) return;
        e.preventDefault();
        setOpen(true);
        setActive((i) => (i + 1) % items.length);
        break;
      case "ArrowUp":
        if (!items.length) return;
        e.preventDefault();
        setOpen(true);
        setActive((i) => (i <= 0 ? items.length - 1 : i - 1));
        break;
      case "Enter":
        if (open && active >= 0 && items[active]) {
          e.preventDefault();
          pick(items[active]);
        }
        break;
      case "Escape":
        if (open) {
          e.preventDefault();
          setOpen(false);
          setActive(-1);
        } else if (value) {
          e.preventDefault();
          setValue("");
          setItems([]);
        }
        break;
      default:
    }
  };

  const expanded = open && (items.length > 0 || settled);
  const activeId = expanded && active >= 0 ? `${listId}-opt-${active}` : undefined;

  return (
    <Form role="search" method="get" action={to("/products")} className="search-box" onSubmit={() => setOpen(false)}>
      <Stylesheet href={searchCss} />
      <label htmlFor="site-search" className="visually-hidden">
        {t("search.label")}
      </label>
      <input
        id="site-search"
        name="q"
        type="search"
        placeholder={t("search.placeholder")}
        autoComplete="off"
        spellCheck={false}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={activeId}
        aria-describedby={statusId}
        value={value}
        maxLength={100}
        onChange={(e) => {
          setValue(e.target.value);
          setSettled(false);
          fetchSuggestions(e.target.value);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => {
          if (items.length) setOpen(true);
        }}
        onBlur={() => setOpen(false)}
      />
      {/* Its magnifier is drawn by app.css: the header is in every page's first load. */}
      <button type="submit" className="search-box__submit" aria-label={t("search.submit")} />
      <ul id={listId} role="listbox" aria-label={t("search.suggestions")} className="suggest" hidden={!expanded}>
        {items.length === 0 ? (
          <li role="option" aria-selected={false} aria-disabled="true" className="suggest__empty">
            {t("search.noSuggestions")}
          </li>
        ) : (
          items.map((s, i) => (
            // Options are picked with the keyboard through the input (aria-activedescendant), so the click is mouse-only.
            // eslint-disable-next-line jsx-a11y/click-events-have-key-events
            <li
              key={s.slug}
              id={`${listId}-opt-${i}`}
              role="option"
              aria-selected={i === active}
              className="suggest__option"
              // Keep the focus in the input; the click picks.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => pick(s)}
              onMouseMove={() => setActive(i)}
            >
              <img src={s.image} alt="" width={40} height={40} loading="lazy" decoding="async" />
              <span className="suggest__text">
                <span className="suggest__name">{s.name}</span>
                <span className="suggest__model muted">
                  <bdi>{s.model}</bdi>
                </span>
              </span>
              <span className="suggest__price">
                <bdi>{formatMoney(s.price, s.currency, locale)}</bdi>
              </span>
            </li>
          ))
        )}
      </ul>
      <span id={statusId} className="visually-hidden" aria-live="polite">
        {expanded
          ? items.length
            ? t("search.suggestionsCount", { count: items.length })
            : t("search.noSuggestions")
          : ""}
      </span>
    </Form>
  );
}
