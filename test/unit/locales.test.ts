import { describe, expect, it, vi } from "vitest";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import { registerMessages, translate } from "../../app/lib/i18n";
import { localeFromAcceptLanguage, switchLocalePath } from "../../app/lib/locales";

/** CLDR's plural categories: a message with these keys is one message in the forms its language needs. */
const PLURAL_FORMS = new Set(["zero", "one", "two", "few", "many", "other"]);
const isPlural = (v: unknown): v is Record<string, string> =>
  Boolean(v) &&
  typeof v === "object" &&
  "other" in (v as object) &&
  Object.keys(v as object).every((k) => PLURAL_FORMS.has(k));

function keys(obj: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === "object" && !isPlural(v)
      ? keys(v as Record<string, unknown>, `${prefix}${k}.`)
      : [`${prefix}${k}`],
  );
}

const valueAt = (messages: unknown, key: string) =>
  key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], messages);

describe("locale files", () => {
  it("English and Arabic carry exactly the same keys", () => {
    expect(keys(ar).sort()).toEqual(keys(en).sort());
  });

  it("no message is empty in either language", () => {
    for (const [name, messages] of [
      ["en", en],
      ["ar", ar],
    ] as const) {
      for (const key of keys(messages)) {
        const value = valueAt(messages, key);
        for (const text of isPlural(value) ? Object.values(value) : [value])
          expect(text, `${name}:${key}`).toMatch(/\S/);
      }
    }
  });

  it("a placeholder used in English is used in Arabic too", () => {
    for (const key of keys(en)) {
      // A plural message is compared by its general form; Arabic's "one" and "two" name no number.
      const get = (m: unknown) => {
        const value = valueAt(m, key);
        return isPlural(value) ? value.other : (value as string);
      };
      const names = (s: string) => (s.match(/\{\{\s*\w+\s*\}\}/g) ?? []).map((p) => p.replace(/\s/g, "")).sort();
      expect(names(get(ar)), key).toEqual(names(get(en)));
    }
  });
});

describe("plural messages", () => {
  it("carry the forms their language needs: Arabic all six, English one and other", () => {
    const plurals = keys(en).filter((key) => isPlural(valueAt(en, key)));
    expect(plurals.length).toBeGreaterThan(0);
    for (const key of plurals) {
      expect(Object.keys(valueAt(ar, key) as object).sort(), key).toEqual([
        "few",
        "many",
        "one",
        "other",
        "two",
        "zero",
      ]);
      expect(Object.keys(valueAt(en, key) as object).sort(), key).toEqual(["one", "other"]);
    }
  });
});

describe("translate", () => {
  registerMessages("en", { greeting: "Hello {{name}}", only: { en: "English only" } });
  registerMessages("ar", { greeting: "مرحبا {{name}}" });

  it("fills placeholders in the requested language", () => {
    expect(translate("ar", "greeting", { name: "سارة" })).toBe("مرحبا سارة");
    expect(translate("en", "greeting", { name: "Sara" })).toBe("Hello Sara");
  });

  it("a missing key warns and falls back to English", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(translate("ar", "only.en")).toBe("English only");
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("only.en"));
    warn.mockRestore();
  });
});

describe("locale helpers", () => {
  it("switching locale keeps the current path", () => {
    expect(switchLocalePath("/en/products", "ar")).toBe("/ar/products");
    expect(switchLocalePath("/ar/product-details/x", "en")).toBe("/en/product-details/x");
    expect(switchLocalePath("/", "ar")).toBe("/ar");
  });

  it("Accept-Language picks the best supported locale by quality", () => {
    expect(localeFromAcceptLanguage("fr-FR,ar;q=0.8,en;q=0.5")).toBe("ar");
    expect(localeFromAcceptLanguage("de")).toBeUndefined();
    expect(localeFromAcceptLanguage("en-GB,en;q=0.9")).toBe("en");
  });
});
