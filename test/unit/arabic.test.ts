import { describe, expect, it } from "vitest";
import { ftsQuery } from "../../worker/backend/services/catalogue/analysis";
import { foldArabic, MAX_QUERY_TOKENS, searchTokens } from "../../worker/backend/services/catalogue/arabic";

describe("Arabic folding for search", () => {
  it("folds every alef form to a bare alef", () => {
    expect(foldArabic("أيفون")).toBe("ايفون");
    expect(foldArabic("إيفون")).toBe("ايفون");
    expect(foldArabic("آيفون")).toBe("ايفون");
    expect(foldArabic("ٱيفون")).toBe("ايفون");
    expect(foldArabic("ايفون")).toBe("ايفون");
  });

  it("folds taa marbuta to haa and alef maqsura to yaa", () => {
    expect(foldArabic("شاشة")).toBe("شاشه");
    expect(foldArabic("مكتبى")).toBe("مكتبي");
  });

  it("removes tashkeel and tatweel", () => {
    expect(foldArabic("آيْفُون")).toBe("ايفون");
    expect(foldArabic("سَمّاعَةٌ")).toBe("سماعه");
    expect(foldArabic("جـــالاكسي")).toBe("جالاكسي");
  });

  it("turns Arabic-Indic and Eastern Arabic-Indic digits into Latin digits", () => {
    expect(foldArabic("آيفون ١٥ برو")).toBe("ايفون 15 برو");
    expect(foldArabic("۱۲۸ جيجابايت")).toBe("128 جيجابايت");
    expect(foldArabic("٠١٢٣٤٥٦٧٨٩")).toBe("0123456789");
  });

  it("lowercases Latin text and drops its accents", () => {
    expect(foldArabic("iPhone 15 PRO")).toBe("iphone 15 pro");
    expect(foldArabic("Garmin fēnix")).toBe("garmin fenix");
  });

  it("is idempotent", () => {
    const once = foldArabic("أَجْهِزَة آيفون ١٥ Galaxy");
    expect(foldArabic(once)).toBe(once);
  });

  it("splits into words the way the unicode61 tokenizer does", () => {
    expect(searchTokens("SM-S928B (Galaxy)")).toEqual(["sm", "s928b", "galaxy"]);
  });
});

describe("the FTS5 query builder", () => {
  it("quotes and prefix-matches every folded word, all of them required", () => {
    expect(ftsQuery("آيفون ١٥")).toBe('"ايفون"* AND "15"*');
    expect(ftsQuery("iph")).toBe('"iph"*');
  });

  it("turns operators and syntax into plain words or drops them", () => {
    expect(ftsQuery('"')).toBeNull();
    expect(ftsQuery("*")).toBeNull();
    expect(ftsQuery("   ")).toBeNull();
    expect(ftsQuery("OR")).toBe('"or"*');
    expect(ftsQuery("NEAR(a b)")).toBe('"near"* AND "a"* AND "b"*');
    expect(ftsQuery('name:"x" -y ^z')).toBe('"name"* AND "x"* AND "y"* AND "z"*');
  });

  it("caps the number of words", () => {
    expect(ftsQuery("a b c d e f g h i j k")!.split(" AND ")).toHaveLength(MAX_QUERY_TOKENS);
  });
});
