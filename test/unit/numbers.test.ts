import fc from "fast-check";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { productFields } from "../../contract/console-catalogue";
import {
  arabicIndicDigits,
  formatMinorUnits,
  groupThousands,
  readCount,
  readMoney,
  readNumber,
} from "../../contract/numbers";
import { inputMessages } from "../../contract/server/input-messages";

const PERSIAN = (text: string) => text.replace(/\d/g, (d) => String.fromCharCode(0x06f0 + Number(d)));
const halalas = fc.integer({ min: 0, max: 100_000_000_000 });

describe("typed numbers (contract/numbers.ts)", () => {
  it("reads riyals into halalas exactly, never through a float", () => {
    expect(readMoney("٢٩٩٫٥٠")).toEqual({ ok: true, value: 29950 });
    expect(readMoney("299.5")).toEqual({ ok: true, value: 29950 });
    expect(readMoney("0.29")).toEqual({ ok: true, value: 29 });
    expect(readMoney("1.005")).toEqual({ ok: false, problem: "decimals" });
    expect(readMoney("1,299.50")).toEqual({ ok: true, value: 129950 });
    expect(readMoney("١٬٢٩٩٫٥٠")).toEqual({ ok: true, value: 129950 });
    expect(readMoney(" 349 ")).toEqual({ ok: true, value: 34900 });
    expect(readMoney("۱۴۹")).toEqual({ ok: true, value: 14900 });
    expect(readMoney("1.500")).toEqual({ ok: true, value: 150 });
    expect(readMoney(".5")).toEqual({ ok: true, value: 50 });
  });

  it("says why a text is refused", () => {
    expect(readMoney("")).toEqual({ ok: false, problem: "empty" });
    expect(readMoney("twelve")).toEqual({ ok: false, problem: "format" });
    expect(readMoney("1.2.3")).toEqual({ ok: false, problem: "format" });
    expect(readMoney("12,5")).toEqual({ ok: false, problem: "grouping" });
    expect(readMoney("1,2345")).toEqual({ ok: false, problem: "grouping" });
    expect(readMoney("-3")).toEqual({ ok: false, problem: "negative" });
    expect(readMoney("2000000", { max: 100_000_000 })).toEqual({ ok: false, problem: "range" });
    expect(readCount("2.5")).toEqual({ ok: false, problem: "decimals" });
    expect(readCount("-2", { min: -10 })).toEqual({ ok: true, value: -2 });
    expect(readCount("−٢", { min: -10 })).toEqual({ ok: true, value: -2 });
    expect(readNumber("99999999999999", { decimals: 2 })).toEqual({ ok: false, problem: "range" });
  });

  it("format(read(x)) round-trips, and Arabic-Indic, Persian and grouped texts read as the Western one", () => {
    fc.assert(
      fc.property(halalas, (minor) => {
        const text = formatMinorUnits(minor);
        expect(readMoney(text)).toEqual({ ok: true, value: minor });
        expect(readMoney(arabicIndicDigits(text))).toEqual({ ok: true, value: minor });
        expect(readMoney(PERSIAN(text))).toEqual({ ok: true, value: minor });
        expect(readMoney(groupThousands(text))).toEqual({ ok: true, value: minor });
        expect(readMoney(arabicIndicDigits(groupThousands(text)).replace(/,/g, "٬"))).toEqual({
          ok: true,
          value: minor,
        });
      }),
    );
  });

  it("any decimal text with at most two decimals reads as its exact halalas", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 0, max: 99 }), (riyals, cents) => {
        const text = `${riyals}.${String(cents).padStart(2, "0")}`;
        const reading = readMoney(text);
        expect(reading).toEqual({ ok: true, value: riyals * 100 + cents });
        if (reading.ok) expect(formatMinorUnits(reading.value)).toBe(text);
      }),
    );
  });

  it("the product schema reads typed riyals and refuses with the reason, in both languages", () => {
    const en = productFields(inputMessages("en"));
    const ar = productFields(inputMessages("ar"));
    expect(v.parse(en.price, "٢٩٩٫٥٠")).toBe(29950);
    // A JSON number is already halalas (the API's unit).
    expect(v.parse(en.price, 29950)).toBe(29950);
    expect(v.parse(en.compare_at_price, "")).toBeNull();
    expect(v.parse(en.stock, "٢٠")).toBe(20);
    const issue = (schema: v.GenericSchema, value: unknown) => {
      const result = v.safeParse(schema, value);
      return result.success ? "" : result.issues[0]?.message;
    };
    expect(issue(en.price, "59.905")).toBe("Price: up to 2 decimals (halalas).");
    expect(issue(ar.price, "59.905")).toBe("السعر: منزلتان عشريتان على الأكثر (الهللات).");
    expect(issue(en.price, "abc")).toBe("Price: type an amount in riyals, e.g. 299.50.");
    expect(issue(en.price, "")).toBe("Price is required.");
    expect(issue(en.price, "2,000,000")).toBe("Price must be from 0.00 to 1,000,000.00 SAR.");
    expect(issue(en.stock, "1.5")).toBe("Stock must be a whole number, without decimals.");
    expect(issue(en.price, 12.5)).toBe("Price: up to 2 decimals (halalas).");
  });
});
