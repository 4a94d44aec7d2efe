import { describe, expect, it } from "vitest";
import type { Location } from "react-router";
import { scrollKeyOf } from "../../app/client/scroll-key";

const at = (key: string, hash = ""): Location => ({
  key,
  pathname: "/ar/product-details/iphone-16-pro",
  search: "?colour=black",
  hash,
  state: null,
});

describe("the scroll restoration key", () => {
  it("keys the browser's own fragment entries by their URL, each apart", () => {
    expect(scrollKeyOf(at("default", "#reviews"), true)).toBe("/ar/product-details/iphone-16-pro?colour=black#reviews");
    expect(scrollKeyOf(at("default", "#main"), true)).not.toBe(scrollKeyOf(at("default", "#reviews"), true));
  });

  it("keeps the router's key for its own entries and for the server's render", () => {
    expect(scrollKeyOf(at("k3x9", "#reviews"), true)).toBe("k3x9");
    expect(scrollKeyOf(at("default"), false)).toBe("default");
  });
});
