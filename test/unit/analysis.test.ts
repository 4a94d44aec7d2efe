import { describe, expect, it } from "vitest";
import {
  analyze,
  ftsQuery,
  indexText,
  stemArabic,
  synonymGroups,
} from "../../worker/backend/services/catalogue/analysis";
import { editDistance, maxEdits } from "../../worker/backend/services/catalogue/spelling";

describe("search analysis", () => {
  it("gives an Arabic plural, its singular and their forms with the article one stem", () => {
    for (const group of [
      ["تلفزيونات", "التلفزيونات", "تلفزيون", "بالتلفزيون"],
      ["جوالات", "الجوالات", "جوال"],
      ["سماعات", "السماعات", "سماعة", "والسماعات"],
      ["كاميرات", "الكاميرات", "كاميرا"],
      ["لابتوبات", "لابتوب"],
      ["اللاسلكية", "اللاسلكي"],
      ["ألعاب", "الألعاب"],
    ]) {
      const stems = new Set(group.map((w) => analyze(w).join(" ")));
      expect([...stems], group.join(" / ")).toHaveLength(1);
    }
  });

  it("leaves short words and names whole", () => {
    expect(stemArabic("ايفون")).toBe("ايفون");
    expect(stemArabic("سوني")).toBe("سوني");
    expect(stemArabic("جوال")).toBe("جوال");
    expect(analyze("هواتف")).toEqual(["هواتف"]); // a broken plural: the synonym table's business
  });

  it("stems English with Snowball: plurals and common endings", () => {
    expect(analyze("televisions")).toEqual(analyze("television"));
    expect(analyze("games")).toEqual(analyze("gaming"));
    expect(analyze("Laptops Phones")).toEqual(["laptop", "phone"]);
    expect(analyze("SM-S928B 256GB")).toEqual(["sm", "s928b", "256gb"]);
  });

  it("indexes each word's stem and the word itself", () => {
    expect(indexText("التلفزيونات TVs")).toBe("تلفز التلفزيونات tv tvs");
  });

  it("expands a word, or a run of words, of a synonym group into the group's terms", () => {
    const groups = synonymGroups([
      { group_name: "laptop", term: "لابتوب" },
      { group_name: "laptop", term: "حاسوب محمول" },
      { group_name: "laptop", term: "notebook" },
      { group_name: "alone", term: "only one term" },
    ]);
    expect(groups).toHaveLength(1);
    expect(ftsQuery("notebooks", groups)).toBe('("notebook"* OR "لابتوب"* OR "حاسوب محمول"*)');
    // «حاسوب محمول» is one laptop, not a computer and something portable.
    expect(ftsQuery("حاسوب محمول 16", groups)).toBe('("حاسوب محمول"* OR "لابتوب"* OR "notebook"*) AND "16"*');
  });

  it("also finds a number run into its unit written apart, as typed values are indexed", () => {
    expect(ftsQuery("16gb laptop")).toBe('("16gb"* OR "16 gb"*) AND "laptop"*');
    expect(ftsQuery("٦٥inch")).toBe('("65inch"* OR "65 inch"*)');
    expect(ftsQuery("a55 16")).toBe('"a55"* AND "16"*');
  });

  it("measures typos with a swap of neighbours as one edit", () => {
    expect(editDistance("samsng", "samsung", 2)).toBe(1);
    expect(editDistance("huwaei", "huawei", 2)).toBe(1);
    expect(editDistance("سامسنج", "سامسونج", 2)).toBe(1);
    expect(editDistance("sony", "canon", 2)).toBe(3);
    expect(maxEdits("sony")).toBe(1);
    expect(maxEdits("samsung")).toBe(2);
  });
});
