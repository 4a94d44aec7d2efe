import { afterEach, describe, expect, it, vi } from "vitest";
import { browserApi, configureBrowserApi } from "../../app/lib/api/browser";

// Spec §7: the browser's lookup GETs go to the separate lookup base URL the root loader hands over
// (LOOKUP_URL), while every other call stays on the backend base.
describe("the browser's backend bases", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    configureBrowserApi({ backendBase: "/backend" });
  });

  it("§7: a lookup GET goes to the separate lookup base, the other calls to the backend base", async () => {
    const urls: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      urls.push(String(input));
      return Response.json({ data: [] });
    });
    configureBrowserApi({ backendBase: "/backend/", lookupBase: "https://lookup.example.test/backend/" });
    const api = browserApi("ar");
    await api.lookup("/countries");
    await api.get("/products");
    expect(urls).toEqual(["https://lookup.example.test/backend/countries", "/backend/products"]);

    configureBrowserApi({ backendBase: "/backend" });
    await browserApi("en").lookup("/countries");
    expect(urls.at(-1)).toBe("/backend/countries");
  });
});
