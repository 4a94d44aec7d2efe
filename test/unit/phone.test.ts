import { describe, expect, it } from "vitest";
import {
  acceptPhoneInput,
  COUNTRY_SEARCH_DEBOUNCE_MS,
  createTypeAhead,
  DEFAULT_COUNTRY,
  exceedsMaxLength,
  formatPhone,
  fromE164,
  isPhoneKey,
  isPossible,
  isValid,
  isValidE164,
  listCountries,
  sanitizePhoneInput,
  searchCountries,
  toE164,
  TYPE_AHEAD_RESET_MS,
  typeAheadMatch,
  type PhoneState,
} from "../../app/lib/phone";

describe("phone input (spec §5, §9)", () => {
  it("the default fallback country is us, search is debounced 100 ms and type-ahead resets after 1 s", () => {
    expect(DEFAULT_COUNTRY).toBe("US");
    expect(COUNTRY_SEARCH_DEBOUNCE_MS).toBe(100);
    expect(TYPE_AHEAD_RESET_MS).toBe(1000);
  });

  it("strict mode keeps only digits and a leading plus, and reads Arabic-Indic digits", () => {
    expect(sanitizePhoneInput("+966 (50) 123-abc")).toBe("+96650123");
    expect(sanitizePhoneInput("05+0")).toBe("050");
    expect(sanitizePhoneInput("٠٥٠١٢٣")).toBe("050123");
    expect(sanitizePhoneInput("۰۵۹")).toBe("059");
    expect(sanitizePhoneInput("letters")).toBe("");
  });

  it("phone-style keys are digits, plus, Backspace and Delete; nothing else", () => {
    for (const key of ["0", "9", "٣", "۵", "+", "Backspace", "Delete"]) expect(isPhoneKey(key), key).toBe(true);
    for (const key of ["a", "-", " ", "(", "e", "Tab", "Enter", "ArrowLeft", "Home", "End", "Escape"])
      expect(isPhoneKey(key), key).toBe(false);
  });

  it("input stops at the maximum possible length for the chosen country", () => {
    let state: PhoneState = { country: DEFAULT_COUNTRY, national: "" };
    for (const digit of "20155501239999") state = acceptPhoneInput(state, state.national + digit);
    expect(state.national).toBe("2015550123");
    expect(exceedsMaxLength("20155501234", "US")).toBe(true);
    expect(exceedsMaxLength("2015550123", "US")).toBe(false);
  });

  it("a leading plus chooses the country its calling code names", () => {
    const typing = acceptPhoneInput({ country: "US", national: "" }, "+4");
    expect(typing).toEqual({ country: "US", national: "+4" });
    expect(acceptPhoneInput(typing, "+44")).toEqual({ country: "GB", national: "" });
    expect(acceptPhoneInput({ country: "US", national: "" }, "+966501234567")).toEqual({
      country: "SA",
      national: "501234567",
    });
  });

  it("possible and valid both need a selected country", () => {
    expect(isPossible("501234567", null)).toBe(false);
    expect(isValid("501234567", undefined)).toBe(false);
    expect(isPossible("501234567", "SA")).toBe(true);
    expect(isValid("501234567", "SA")).toBe(true);
    expect(isValid("2015550123", "US")).toBe(true);
    expect(isPossible("12", "US")).toBe(false);
  });

  it("the value is E.164 and reads back into country and national number", () => {
    expect(toE164({ country: "SA", national: "0501234567" })).toBe("+966501234567");
    expect(toE164({ country: "US", national: "" })).toBe("");
    expect(fromE164("+966501234567")).toEqual({ country: "SA", national: "501234567" });
    expect(fromE164("", "SA")).toEqual({ country: "SA", national: "" });
    expect(isValidE164("+966501234567")).toBe(true);
    expect(isValidE164("+9665")).toBe(false);
    expect(isValidE164("0501234567")).toBe(false);
    expect(formatPhone("+966501234567")).toBe("+966 50 123 4567");
  });

  it("the country list is localized and searchable by name, English name, code and calling code", () => {
    const en = listCountries("en-US");
    const ar = listCountries("ar-SA");
    expect(en.length).toBeGreaterThan(200);
    expect(en.find((c) => c.code === "SA")?.name).toBe("Saudi Arabia");
    expect(ar.find((c) => c.code === "SA")?.name).toMatch(/السعودية/);
    expect(searchCountries(en, "saudi")[0]?.code).toBe("SA");
    expect(searchCountries(en, "+966").map((c) => c.code)).toContain("SA");
    expect(searchCountries(ar, "السعوديه").map((c) => c.code)).toContain("SA");
    expect(searchCountries(ar, "saudi").map((c) => c.code)).toContain("SA");
    expect(searchCountries(en, "")).toHaveLength(en.length);
  });

  it("type-ahead builds one search from quick keys and starts again after a 1 s pause", () => {
    const typeAhead = createTypeAhead();
    expect(typeAhead.push("s", 0)).toBe("s");
    expect(typeAhead.push("a", 400)).toBe("sa");
    expect(typeAhead.push("u", 1300)).toBe("sau");
    expect(typeAhead.current(2000)).toBe("sau");
    expect(typeAhead.current(2301)).toBe("");
    expect(typeAhead.push("j", 2400)).toBe("j");
    const en = listCountries("en-US");
    expect(typeAheadMatch(en, "sau")?.code).toBe("SA");
    expect(typeAheadMatch(en, "")).toBeUndefined();
  });
});
