import { describe, expect, it } from "vitest";
import {
  formatMoney,
  minorUnitDigits,
  toDecimalString,
  toMajor,
  withPriceFromLabels,
  withPriceLabels,
} from "../../app/lib/money";

/** Intl separates the currency with a no-break space; compare with ordinary spaces. */
const plain = (s: string) => s.replace(/\s/g, " ");

describe("money", () => {
  it("shows halalas as riyals in English with two decimals", () => {
    expect(plain(formatMoney(129900, "SAR", "en"))).toBe("SAR 1,299.00");
    expect(plain(formatMoney(5, "SAR", "en"))).toBe("SAR 0.05");
  });

  it("shows Latin digits in Arabic, as Saudi retailers do", () => {
    const text = formatMoney(129950, "SAR", "ar");
    expect(text).toContain("1,299.50");
    expect(text).not.toMatch(/[٠-٩]/);
    expect(text).toMatch(/ر\.س/);
  });

  it("gives machines a plain decimal price for structured data", () => {
    expect(toDecimalString(129950, "SAR")).toBe("1299.50");
    expect(toMajor(100, "SAR")).toBe(1);
  });

  it("respects a currency's own minor unit", () => {
    expect(toDecimalString(1500, "KWD")).toBe("1.500");
    expect(toDecimalString(1500, "JPY")).toBe("1500");
  });

  it("treats a missing amount as zero instead of printing NaN", () => {
    expect(plain(formatMoney(Number.NaN, "SAR", "en"))).toBe("SAR 0.00");
  });

  it("knows the Gulf currencies' minor units without Intl, and asks Intl for any other", () => {
    expect(minorUnitDigits("SAR")).toBe(2);
    expect(minorUnitDigits("KWD")).toBe(3);
    expect(minorUnitDigits("JPY")).toBe(0);
    // Not in the table: Intl answers (and the answer is kept).
    expect(minorUnitDigits("GBP")).toBe(2);
    expect(minorUnitDigits("TND")).toBe(3);
  });

  it("formats a page's prices on the server exactly as the browser would, former price included", () => {
    for (const locale of ["en", "ar"] as const) {
      const [onSale, plainPrice] = withPriceLabels(
        [
          { slug: "a", price: 129900, compare_at_price: 149900, currency: "SAR" },
          { slug: "b", price: 5000, compare_at_price: null, currency: "SAR" },
        ],
        locale,
      );
      expect(onSale).toMatchObject({
        slug: "a",
        price_label: formatMoney(129900, "SAR", locale),
        compare_at_label: formatMoney(149900, "SAR", locale),
      });
      expect(plainPrice.compare_at_label).toBeNull();
      const [service] = withPriceFromLabels([{ price_from: 9900, currency: "SAR" }], locale);
      expect(service.price_label).toBe(formatMoney(9900, "SAR", locale));
    }
  });
});
