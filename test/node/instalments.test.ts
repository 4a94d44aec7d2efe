import { describe, expect, it } from "vitest";
import { instalmentPlan, type InstalmentRule } from "../../contract/instalments.ts";

// The pay-later split the storefront draws under prices (contract/instalments.ts).
const tabby: InstalmentRule = { provider: "tabby", count: 4, min: 1000, max: 1_000_000 };

describe("the instalment plan", () => {
  it("splits a price in four equal payments when it divides: 5,099 SAR is 4 of 1,274.75", () => {
    expect(instalmentPlan(tabby, 509_900)).toEqual([127_475, 127_475, 127_475, 127_475]);
  });

  it("puts the halalas that do not divide on the first payment, so the payments sum to the price", () => {
    for (const amount of [1001, 1002, 1003, 99_999, 100_001, 999_997]) {
      const plan = instalmentPlan(tabby, amount)!;
      expect(plan).toHaveLength(4);
      expect(plan.reduce((a, b) => a + b, 0)).toBe(amount);
      expect(new Set(plan.slice(1)).size).toBe(1);
      expect(plan[0] - plan[1]).toBeGreaterThanOrEqual(0);
      expect(plan[0] - plan[1]).toBeLessThan(4);
    }
  });

  it("answers nothing outside the provider's limits, which are both included", () => {
    expect(instalmentPlan(tabby, 999)).toBeNull();
    expect(instalmentPlan(tabby, 1000)).not.toBeNull();
    expect(instalmentPlan(tabby, 1_000_000)).not.toBeNull();
    expect(instalmentPlan(tabby, 1_000_001)).toBeNull();
    expect(instalmentPlan(tabby, 12.5)).toBeNull();
  });
});
