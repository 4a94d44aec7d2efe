import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type Ref,
  type FocusEvent,
} from "react";
import { phoneInputProps } from "../lib/forms";
import {
  acceptPhoneInput,
  COUNTRY_SEARCH_DEBOUNCE_MS,
  createTypeAhead,
  DEFAULT_COUNTRY,
  fromE164,
  listCountries,
  searchCountries,
  toCountryCode,
  toE164,
  typeAheadMatch,
  type Country,
  type CountryCode,
  type PhoneState,
} from "../lib/phone";
import { useLocaleInfo, useT } from "../lib/use-locale";
import { Stylesheet } from "./Stylesheet";
import accountCss from "../styles/account.css?url";

export interface PhoneInputProps {
  /** The id of the number input; the field's <label htmlFor> points at it. */
  id: string;
  name?: string;
  /** The number in E.164 (`+9665...`), or "". */
  value: string;
  onChange: (e164: string) => void;
  onBlur?: (event: FocusEvent<HTMLInputElement>) => void;
  inputRef?: Ref<HTMLInputElement>;
  /** Spec §9: `us` unless the form knows better. */
  defaultCountry?: string;
  invalid?: boolean;
  describedBy?: string;
  required?: boolean;
  autoComplete?: string;
}

/**
 * A phone number with its country (spec §5): strict (digits and a leading plus), stops at the
 * country's maximum length, E.164 out. The country list is a searchable listbox (search
 * debounced 100 ms) with localized names, and the closed country button answers type-ahead
 * like a native select (the buffer resets after 1 s).
 *
 * The field is always laid out left to right, in Arabic too: a phone number is written
 * "+966 512345678" in either script, so the country part sits on the left of the digits, where an
 * Arabic reader expects the international prefix (not "0512345678 | +966 SA"). The country list
 * keeps the page's direction.
 */
export function PhoneInput({
  id,
  name,
  value,
  onChange,
  onBlur,
  inputRef,
  defaultCountry,
  invalid,
  describedBy,
  required,
  autoComplete = "tel-national",
}: PhoneInputProps) {
  const t = useT();
  const info = useLocaleInfo();
  const fallback = toCountryCode(defaultCountry) ?? DEFAULT_COUNTRY;
  const [state, setState] = useState<PhoneState>(() => fromE164(value, fallback));
  const countries = useMemo(() => listCountries(info.tag), [info.tag]);
  const current = countries.find((c) => c.code === state.country);

  // A value set from outside (a reset, an edit form filled in) wins over the local state.
  useEffect(() => {
    setState((prev) => (toE164(prev) === (value ?? "") ? prev : fromE164(value, prev.country)));
  }, [value]);

  const commit = (next: PhoneState) => {
    setState(next);
    const e164 = toE164(next);
    if (e164 !== (value ?? "")) onChange(e164);
  };

  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const numberRef = useRef<HTMLInputElement | null>(null);
  const typeAhead = useRef(createTypeAhead());

  const chooseCountry = (code: CountryCode, focusNumber = true) => {
    commit({ country: code, national: acceptPhoneInput({ country: code, national: "" }, state.national).national });
    setOpen(false);
    if (focusNumber) requestAnimationFrame(() => numberRef.current?.focus());
  };

  const onButtonKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      return;
    }
    if (e.key.length === 1 && e.key !== " " && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const match = typeAheadMatch(countries, typeAhead.current.push(e.key, Date.now()));
      if (match) {
        e.preventDefault();
        commit({
          country: match.code,
          national: acceptPhoneInput({ country: match.code, national: "" }, state.national).national,
        });
      }
    }
  };

  const setNumberRef = useCallback(
    (el: HTMLInputElement | null) => {
      numberRef.current = el;
      if (typeof inputRef === "function") inputRef(el);
      else if (inputRef && typeof inputRef === "object")
        (inputRef as { current: HTMLInputElement | null }).current = el;
    },
    [inputRef],
  );

  return (
    <div className="phone-input" dir="ltr" data-invalid={invalid ? "true" : undefined}>
      <Stylesheet href={accountCss} />
      <button
        ref={buttonRef}
        type="button"
        className="phone-input__country"
        aria-haspopup="listbox"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={onButtonKeyDown}
      >
        <span className="visually-hidden">
          {t("phone.countryButton", { country: current?.name ?? state.country })}{" "}
        </span>
        <span className="phone-input__iso" aria-hidden="true">
          {state.country}
        </span>
        <span className="phone-input__code">+{current?.callingCode}</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" width="14" height="14">
          <path d="M5 7l5 6 5-6" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </button>
      <input
        {...phoneInputProps}
        ref={setNumberRef}
        id={id}
        name={name}
        type="tel"
        className="phone-input__number"
        value={state.national}
        autoComplete={autoComplete}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        aria-required={required ? true : undefined}
        onChange={(e) => commit(acceptPhoneInput(state, e.currentTarget.value))}
        onBlur={onBlur}
      />
      {open ? (
        <CountryList
          dir={info.dir}
          countries={countries}
          selected={state.country}
          onChoose={(code) => chooseCountry(code)}
          onClose={() => {
            setOpen(false);
            buttonRef.current?.focus();
          }}
          onLeave={() => setOpen(false)}
        />
      ) : null}
    </div>
  );
}

function CountryList({
  dir,
  countries,
  selected,
  onChoose,
  onClose,
  onLeave,
}: {
  dir: "ltr" | "rtl";
  countries: Country[];
  selected: CountryCode;
  onChoose: (code: CountryCode) => void;
  onClose: () => void;
  onLeave: () => void;
}) {
  const t = useT();
  const listId = useId();
  const [query, setQuery] = useState("");
  const [debounced, setDebounced] = useState("");
  const results = useMemo(() => searchCountries(countries, debounced), [countries, debounced]);
  const [active, setActive] = useState(() =>
    Math.max(
      0,
      countries.findIndex((c) => c.code === selected),
    ),
  );
  const searchRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    searchRef.current?.focus();
  }, []);

  // Spec §9: the country search waits 100 ms after the last key.
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(query), COUNTRY_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);

  useEffect(() => {
    if (debounced) setActive(0);
  }, [debounced]);

  const activeCountry = results[Math.min(active, results.length - 1)];
  const optionId = (code: string) => `${listId}-${code}`;

  useEffect(() => {
    if (activeCountry) document.getElementById(optionId(activeCountry.code))?.scrollIntoView({ block: "nearest" });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [activeCountry?.code]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case "ArrowDown":
        e.preventDefault();
        setActive((i) => Math.min(results.length - 1, i + 1));
        break;
      case "ArrowUp":
        e.preventDefault();
        setActive((i) => Math.max(0, i - 1));
        break;
      case "PageDown":
        e.preventDefault();
        setActive((i) => Math.min(results.length - 1, i + 10));
        break;
      case "PageUp":
        e.preventDefault();
        setActive((i) => Math.max(0, i - 10));
        break;
      case "Enter":
        e.preventDefault();
        if (activeCountry) onChoose(activeCountry.code);
        break;
      case "Escape":
        e.preventDefault();
        e.stopPropagation();
        onClose();
        break;
      case "Tab":
        onLeave();
        break;
    }
  };

  return (
    <div
      className="phone-input__popup"
      dir={dir}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) onLeave();
      }}
    >
      <input
        ref={searchRef}
        type="search"
        className="phone-input__search"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeCountry ? optionId(activeCountry.code) : undefined}
        aria-label={t("phone.search")}
        placeholder={t("phone.search")}
        autoComplete="off"
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={onKeyDown}
      />
      <ul id={listId} role="listbox" className="phone-input__list" aria-label={t("phone.countries")} tabIndex={-1}>
        {results.map((c, i) => (
          // Options are picked with the keyboard through the input (aria-activedescendant), so the click is mouse-only.
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events
          <li
            key={c.code}
            id={optionId(c.code)}
            role="option"
            aria-selected={c.code === selected}
            className={`phone-input__option${c === activeCountry ? " is-active" : ""}`}
            onMouseDown={(e) => e.preventDefault()}
            onMouseEnter={() => setActive(i)}
            onClick={() => onChoose(c.code)}
          >
            <span className="phone-input__iso" aria-hidden="true">
              {c.code}
            </span>
            <span className="phone-input__option-name">{c.name}</span>
            <bdi className="phone-input__option-code" dir="ltr">
              +{c.callingCode}
            </bdi>
          </li>
        ))}
      </ul>
      {results.length === 0 ? (
        <p className="phone-input__empty" role="status">
          {t("phone.noResults")}
        </p>
      ) : null}
    </div>
  );
}
