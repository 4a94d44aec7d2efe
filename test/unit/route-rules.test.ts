import { describe, expect, it } from "vitest";
import { ROUTE_RULES, routeRuleFor } from "../../app/middleware/route-rules";

describe("route rules (spec §2)", () => {
  it("§2: route-rule redirects: the old product path moves to product-details in both locales, 301", () => {
    expect(ROUTE_RULES.length).toBeGreaterThan(0);
    for (const locale of ["en", "ar"]) {
      expect(routeRuleFor(`/${locale}/product/galaxy-s25`)).toEqual({
        to: `/${locale}/product-details/galaxy-s25`,
        status: 301,
      });
      expect(routeRuleFor(`/${locale}/product/galaxy-s25/`)).toEqual({
        to: `/${locale}/product-details/galaxy-s25`,
        status: 301,
      });
    }
  });

  it("§2: a path no rule names is left to the routes (and to page validation's 404)", () => {
    expect(routeRuleFor("/en/product-details/galaxy-s25")).toBeNull();
    expect(routeRuleFor("/en/product")).toBeNull();
    expect(routeRuleFor("/en/product//")).toBeNull();
    expect(routeRuleFor("/en/product/a/b")).toBeNull();
  });

  it("a rule is data: any pattern of literal segments and :params maps onto its target", () => {
    const rules = [{ from: "/:locale/old/:a/:b", to: "/:locale/new/:b/:a", status: 308 as const }];
    expect(routeRuleFor("/ar/old/x/y", rules)).toEqual({ to: "/ar/new/y/x", status: 308 });
  });
});
