import { describe, expect, it } from "vitest";
import { formatMoney, toDecimalString, toMajor } from "../../app/lib/money";

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
});
