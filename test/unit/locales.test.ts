import { describe, expect, it, vi } from "vitest";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import { registerMessages, translate } from "../../app/lib/i18n";
import { localeFromAcceptLanguage, switchLocalePath } from "../../app/lib/locales";

function keys(obj: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === "object" ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

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
        const value = key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], messages);
        expect(value, `${name}:${key}`).toMatch(/\S/);
      }
    }
  });

  it("a placeholder used in English is used in Arabic too", () => {
    for (const key of keys(en)) {
      const get = (m: unknown) =>
        key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], m) as string;
      const names = (s: string) => (s.match(/\{\{\s*\w+\s*\}\}/g) ?? []).map((p) => p.replace(/\s/g, "")).sort();
      expect(names(get(ar)), key).toEqual(names(get(en)));
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
