import {
  AsYouType,
  getCountries,
  getCountryCallingCode,
  isPossiblePhoneNumber,
  isValidPhoneNumber,
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
  type CountryCode,
} from "libphonenumber-js/min";
import { DEFAULT_COUNTRY, normalizeSearch, sanitizePhoneInput } from "./phone-text";

/**
 * Phone numbers (spec §5, DESIGN §7) on libphonenumber-js with the small "min" metadata: strict
 * input (digits and a leading plus only), input stops at the chosen country's maximum possible
 * length, "possible" and "valid" checks that both need a country, default country `us`, and the
 * value kept in E.164.
 */
export type { CountryCode };

export * from "./phone-text";

const ALL_COUNTRIES = new Set<string>(getCountries());

export function toCountryCode(value: string | null | undefined): CountryCode | null {
  const code = (value ?? "").trim().toUpperCase();
  return ALL_COUNTRIES.has(code) ? (code as CountryCode) : null;
}

/** True when national digits are longer than any number the country can have. */
export function exceedsMaxLength(national: string, country: CountryCode): boolean {
  return national.length > 0 && validatePhoneNumberLength(national, country) === "TOO_LONG";
}

export interface PhoneState {
  country: CountryCode;
  /** National digits as typed (possibly with a national prefix), or "+…" while a calling code is being typed. */
  national: string;
}

/**
 * The next state of the phone input after the visitor typed or pasted `raw`. A leading plus
 * switches the country to the one the calling code names; input that would exceed the
 * country's maximum length is refused (the previous state stays).
 */
export function acceptPhoneInput(previous: PhoneState, raw: string): PhoneState {
  const clean = sanitizePhoneInput(raw);
  if (clean.startsWith("+")) {
    const typer = new AsYouType();
    typer.input(clean);
    const callingCode = typer.getCallingCode();
    // "+", "+4": the calling code is still being typed; keep it as typed (at most 3 digits).
    if (!callingCode) return clean.length <= 4 ? { country: previous.country, national: clean } : previous;
    const country = toCountryCode(typer.getCountry()) ?? countryForCallingCode(callingCode, previous.country);
    const national = clean.slice(1 + callingCode.length);
    if (exceedsMaxLength(national, country)) return previous;
    return { country, national };
  }
  if (exceedsMaxLength(clean, previous.country)) return previous;
  return { country: previous.country, national: clean };
}

/** The country for a calling code: the current one if it shares the code, else the code's main country. */
export function countryForCallingCode(callingCode: string, current: CountryCode): CountryCode {
  if (getCountryCallingCode(current) === callingCode) return current;
  const typer = new AsYouType();
  typer.input(`+${callingCode}`);
  const main = toCountryCode(typer.getCountry());
  if (main) return main;
  return (getCountries().find((c) => getCountryCallingCode(c) === callingCode) ?? current) as CountryCode;
}

/** E.164 for what was typed: `+<calling code><national number>`; empty input gives "". */
export function toE164(state: PhoneState): string {
  if (!state.national) return "";
  // A calling code still being typed is passed on as typed; the validator refuses it.
  if (state.national.startsWith("+")) return state.national;
  const parsed = parsePhoneNumberFromString(state.national, state.country);
  if (parsed) return parsed.number;
  return `+${getCountryCallingCode(state.country)}${state.national.replace(/^0+/, "")}`;
}

/** The input's state for a stored E.164 value (or "" with the given country). */
export function fromE164(value: string | null | undefined, fallback: CountryCode = DEFAULT_COUNTRY): PhoneState {
  const clean = sanitizePhoneInput(value ?? "");
  if (!clean) return { country: fallback, national: "" };
  if (!clean.startsWith("+")) return acceptPhoneInput({ country: fallback, national: "" }, clean);
  const parsed = parsePhoneNumberFromString(clean);
  if (parsed) {
    const country = toCountryCode(parsed.country) ?? countryForCallingCode(parsed.countryCallingCode, fallback);
    return { country, national: parsed.nationalNumber };
  }
  return acceptPhoneInput({ country: fallback, national: "" }, clean);
}

/** "Possible" (length only). Needs a selected country, as spec §5 says; without one it is false. */
export function isPossible(number: string, country: CountryCode | null | undefined): boolean {
  if (!country || !number) return false;
  return isPossiblePhoneNumber(sanitizePhoneInput(number), country);
}

/** "Valid" (length and the country's number patterns). Needs a selected country too. */
export function isValid(number: string, country: CountryCode | null | undefined): boolean {
  if (!country || !number) return false;
  return isValidPhoneNumber(sanitizePhoneInput(number), country);
}

/** Validity of a stored E.164 value, using the country its calling code names. */
export function isValidE164(value: string | null | undefined): boolean {
  const clean = sanitizePhoneInput(value ?? "");
  if (!clean.startsWith("+")) return false;
  const { country, national } = fromE164(clean);
  return isValid(national, country);
}

/** A phone number for display, international format, e.g. "+966 50 123 4567". */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return "";
  const parsed = parsePhoneNumberFromString(value);
  return parsed ? parsed.formatInternational() : value;
}

export interface Country {
  code: CountryCode;
  name: string;
  callingCode: string;
  flag: string;
  /** Lower-cased, accent-free text the search matches against (name in the locale and in English, code, calling code). */
  search: string;
}

/** The emoji flag of a country, built from regional indicator symbols. */
export function flagOf(code: string): string {
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

const countryCache = new Map<string, Country[]>();

/** Every country with its name in the locale (`Intl.DisplayNames`), sorted by that name. */
export function listCountries(localeTag: string): Country[] {
  const cached = countryCache.get(localeTag);
  if (cached) return cached;
  const local = displayNames(localeTag);
  const english = displayNames("en");
  const collator = new Intl.Collator(localeTag);
  const list = getCountries()
    .map((code): Country => {
      const name = local(code);
      const callingCode = getCountryCallingCode(code);
      return {
        code,
        name,
        callingCode,
        flag: flagOf(code),
        search: normalizeSearch(`${name} ${english(code)} ${code} +${callingCode}`),
      };
    })
    .sort((a, b) => collator.compare(a.name, b.name));
  countryCache.set(localeTag, list);
  return list;
}

function displayNames(localeTag: string): (code: string) => string {
  try {
    const names = new Intl.DisplayNames([localeTag], { type: "region", fallback: "code" });
    return (code) => names.of(code) ?? code;
  } catch {
    return (code) => code;
  }
}

/** Countries whose name (local or English), code or calling code contains every word of the query. */
export function searchCountries(countries: Country[], query: string): Country[] {
  const words = normalizeSearch(query).replace(/^\+/, "").split(/\s+/).filter(Boolean);
  if (!words.length) return countries;
  const hits = countries.filter((c) => words.every((w) => c.search.includes(w)));
  // Names that start with the query come first.
  const first = normalizeSearch(query);
  return [
    ...hits.filter((c) => normalizeSearch(c.name).startsWith(first)),
    ...hits.filter((c) => !normalizeSearch(c.name).startsWith(first)),
  ];
}

/** The first country whose localized name starts with the type-ahead buffer. */
export function typeAheadMatch(countries: Country[], buffer: string): Country | undefined {
  const q = normalizeSearch(buffer);
  if (!q) return undefined;
  return countries.find((c) => normalizeSearch(c.name).startsWith(q));
}
