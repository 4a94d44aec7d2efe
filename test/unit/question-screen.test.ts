import { describe, expect, it } from "vitest";
import { flagsColumn, flagsOf, screenText, textLang } from "../../worker/backend/services/questions/screen";

describe("screening a question or an answer for the moderator", () => {
  it("flags a link, an email address and a phone number, each once", () => {
    expect(screenText("Cheaper at https://other.example/deal")).toEqual(["link"]);
    expect(screenText("see www.cheap-phones.net")).toEqual(["link"]);
    expect(screenText("buy it on deals.sa instead")).toEqual(["link"]);
    expect(screenText("write to me: sara@example.com")).toEqual(["email"]);
    expect(screenText("call 0551234567 or +966 55 123 4567")).toEqual(["phone"]);
    expect(screenText("واتساب ٠٥٥١٢٣٤٥٦٧")).toEqual(["phone"]);
    expect(screenText("mail a@b.co, or http://x.com, or 00966551234567")).toEqual(["link", "email", "phone"]);
  });

  it("leaves a product question alone: sizes, versions and model numbers are no phone or link", () => {
    for (const clean of [
      "Does it come in 128 256 512 GB?",
      "Is it Wi-Fi 6E and Bluetooth 5.3?",
      "Does the RTX 4090 fit in a 2.4GHz case v1.5?",
      "هل يدعم الشحن السريع 65 واط؟",
      "<script>alert(1)</script> does it fit?",
    ])
      expect(screenText(clean), clean).toEqual([]);
  });

  it("keeps the flags as a JSON column, null when clean, and reads them back", () => {
    expect(flagsColumn([])).toBeNull();
    expect(flagsOf(flagsColumn(["link", "phone"]))).toEqual(["link", "phone"]);
    expect(flagsOf('["email","nonsense"]')).toEqual(["email"]);
    expect(flagsOf("not json")).toEqual([]);
  });
});

describe("the language a text is written in", () => {
  it("is Arabic as soon as it holds an Arabic letter, else English; Arabic-Indic digits alone are not Arabic", () => {
    expect(textLang("هل هذا الهاتف يدعم شريحتين؟")).toBe("ar");
    expect(textLang("Does the iPhone 15 هل fit?")).toBe("ar");
    expect(textLang("Does it support two SIM cards?")).toBe("en");
    expect(textLang("١٢٣٤٥ 128GB?")).toBe("en");
  });
});
