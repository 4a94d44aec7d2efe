import { afterEach, describe, expect, it, vi } from "vitest";
import { isLoaded, loadLocale } from "../../app/lib/i18n";

// Spec §8 (docs/SPEC.md row 110): a locale file that cannot be loaded (offline, a deploy replaced
// the chunk) is logged as 'Failed locale loading' and the page goes on.
vi.mock("virtual:locale/ar/shop", () => {
  throw new Error("chunk missing");
});

afterEach(() => vi.restoreAllMocks());

describe("loading a locale's messages", () => {
  it("§8 row 110: a failed load logs 'Failed locale loading' and does not throw", async () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    await expect(loadLocale("ar")).resolves.toBeUndefined();
    expect(error).toHaveBeenCalledWith("Failed locale loading", "ar", expect.any(Error));
    // The import's own failure (vitest hands a failing mock factory's error on as the cause).
    const logged = error.mock.calls[0][2] as Error;
    expect(String(logged.cause ?? logged)).toContain("chunk missing");
    expect(isLoaded("ar")).toBe(false);
  });
});
