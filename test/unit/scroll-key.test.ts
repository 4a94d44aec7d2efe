import { afterEach, describe, expect, it, vi } from "vitest";
import type { Location } from "react-router";
import { scrollKey } from "../../app/client/scroll-key";

const at = (key: string, hash = ""): Location => ({
  key,
  pathname: "/ar/product-details/iphone-16-pro",
  search: "?colour=black",
  hash,
  state: null,
});

afterEach(() => vi.unstubAllEnvs());

describe("the scroll restoration key", () => {
  it("in the browser, keys the browser's own fragment entries by their URL, each apart", () => {
    vi.stubEnv("SSR", false);
    expect(scrollKey(at("default", "#reviews"))).toBe("/ar/product-details/iphone-16-pro?colour=black#reviews");
    expect(scrollKey(at("default", "#main"))).not.toBe(scrollKey(at("default", "#reviews")));
    expect(scrollKey(at("k3x9", "#reviews"))).toBe("k3x9");
  });

  it("on the server, keeps the router's key", () => {
    vi.stubEnv("SSR", true);
    expect(scrollKey(at("default"))).toBe("default");
  });
});
