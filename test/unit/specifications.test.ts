import { beforeAll, describe, expect, it } from "vitest";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";
import type { ProductAttribute } from "../../contract/catalogue";
import { registerMessages } from "../../app/lib/i18n";
import { formatAttribute, specificationGroups } from "../../app/lib/specifications";

beforeAll(() => {
  registerMessages("en", en);
  registerMessages("ar", ar);
});

const size: ProductAttribute = {
  code: "screen_size",
  label: "Screen size",
  group: "Display",
  type: "number",
  value: 6.73,
  unit: "inch",
};
const storage: ProductAttribute = {
  code: "storage",
  label: "Storage",
  group: "Memory and storage",
  type: "enum",
  value: "1tb",
  option: "1 TB",
};
const fiveG: ProductAttribute = { code: "five_g", label: "5G", group: "Connectivity", type: "bool", value: false };
const chip: ProductAttribute = {
  code: "chip",
  label: "Processor",
  group: "Performance",
  type: "text",
  value: "A18 Pro",
};

describe("typed specifications on the product page", () => {
  it("numbers read in the locale with their unit, Latin digits in Arabic as prices are; yes and no in words", () => {
    expect(formatAttribute(size, "en")).toBe("6.73\u00a0inch");
    expect(formatAttribute({ ...size, value: 1234.5, unit: "بوصة" }, "ar")).toBe("1,234.5\u00a0بوصة");
    expect(formatAttribute({ ...size, value: 65, unit: null }, "en")).toBe("65");
    expect(formatAttribute(storage, "en")).toBe("1 TB");
    expect(formatAttribute(fiveG, "en")).toBe("No");
    expect(formatAttribute({ ...fiveG, value: true }, "ar")).toBe("نعم");
    expect(formatAttribute(chip, "ar")).toBe("A18 Pro");
  });

  it("groups typed rows under their headings in order, then the free-form rows no typed label supersedes, weight last", () => {
    const groups = specificationGroups(
      {
        attributes: [
          size,
          { ...size, code: "refresh_rate", label: "Refresh rate", value: 120, unit: "Hz" },
          chip,
          storage,
        ],
        specifications: [
          { label: "Display", value: "6.3-inch Super Retina XDR" },
          { label: "Processor", value: "A18 Pro chip" },
          { label: " Storage ", value: "1 TB" },
          { label: "Camera", value: "48 MP" },
        ],
        weight_grams: 199,
      },
      "en",
    );
    expect(groups.map((g) => g.heading)).toEqual(["Display", "Performance", "Memory and storage", "More details"]);
    expect(groups[0].rows).toEqual([
      { label: "Screen size", value: "6.73\u00a0inch" },
      { label: "Refresh rate", value: "120\u00a0Hz" },
    ]);
    expect(groups[3].rows.map((r) => r.label)).toEqual(["Display", "Camera", "Weight"]);
  });

  it("without typed values, the free-form rows stand alone with no heading of their own, as before", () => {
    const groups = specificationGroups(
      { specifications: [{ label: "Battery", value: "5,000 mAh" }], weight_grams: null },
      "ar",
    );
    expect(groups).toEqual([{ heading: null, rows: [{ label: "Battery", value: "5,000 mAh" }] }]);
    expect(specificationGroups({ attributes: [], specifications: [], weight_grams: null }, "en")).toEqual([]);
  });
});
