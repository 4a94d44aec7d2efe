import { describe, expect, it } from "vitest";
import { isTrackingParam, withoutTracking } from "../../contract/edge";

describe("campaign and click tags (contract/edge.ts)", () => {
  it("names every utm_ tag and the ad networks' click ids, and nothing a page reads", () => {
    for (const name of [
      "utm_source",
      "utm_medium",
      "utm_campaign",
      "utm_term",
      "utm_content",
      "gclid",
      "fbclid",
      "msclkid",
    ])
      expect(isTrackingParam(name), name).toBe(true);
    for (const name of [
      "q",
      "category",
      "brand",
      "min_price",
      "max_price",
      "in_stock",
      "sort",
      "page",
      "redirect",
      "utm",
    ])
      expect(isTrackingParam(name), name).toBe(false);
  });

  it("leaves them out of a search and keeps the rest as it was", () => {
    expect(withoutTracking("")).toBe("");
    expect(withoutTracking("?")).toBe("");
    expect(withoutTracking("?gclid=abc")).toBe("");
    expect(withoutTracking("?category=phones&utm_source=news&gclid=abc&page=2")).toBe("?category=phones&page=2");
    // Untouched when there is nothing to drop: the same string, its order and encoding.
    expect(withoutTracking("?q=%D9%87%D8%A7%D8%AA%D9%81&sort=name")).toBe("?q=%D9%87%D8%A7%D8%AA%D9%81&sort=name");
    expect(withoutTracking("?q=هاتف&utm_medium=cpc")).toBe("?q=%D9%87%D8%A7%D8%AA%D9%81");
  });

  it("drops every tag however the search spells it, and keeps look-alikes", () => {
    // The text is only parsed when it may hold a tag: every name the pattern knows is found.
    for (const name of ["utm_id", "gclid", "dclid", "gclsrc", "gbraid", "wbraid", "msclkid", "fbclid", "ttclid"])
      expect(withoutTracking(`?page=2&${name}=x`), name).toBe("?page=2");
    for (const name of ["twclid", "li_fat_id", "igshid", "yclid", "mc_cid", "mc_eid", "_ga", "_gl"])
      expect(withoutTracking(`?${name}=x&page=2`), name).toBe("?page=2");
    expect(withoutTracking("gclid=abc")).toBe("");
    expect(withoutTracking("?utm%5Fsource=news&page=2")).toBe("?page=2");
    expect(withoutTracking("?_gallery=1&page=2")).toBe("?_gallery=1&page=2");
    expect(withoutTracking("?q=utm_source")).toBe("?q=utm_source");
  });
});
