import { describe, expect, it } from "vitest";
import { publicOrigin, publicOriginProblem } from "../../contract/server/public-origin";

const production = (PUBLIC_ORIGIN: string) => ({ ENVIRONMENT: "production" as const, PUBLIC_ORIGIN });
const development = (PUBLIC_ORIGIN: string) => ({ ENVIRONMENT: "development" as const, PUBLIC_ORIGIN });

describe("the shop's public origin", () => {
  it("production requires an absolute https origin and never falls back to a request's URL", () => {
    expect(publicOriginProblem(production(""))).toBe("missing");
    expect(() => publicOrigin(production(""), "https://attacker.example/backend/checkout")).toThrow(/PUBLIC_ORIGIN/);
    for (const bad of [
      "http://shop.example",
      "shop.example",
      "https://shop.example/en",
      "https://shop.example/?x=1",
      "https://user:pw@shop.example",
      "javascript:alert(1)",
    ])
      expect(publicOriginProblem(production(bad)), bad).toBe("invalid");
    expect(publicOriginProblem(production("https://shop.example/"))).toBeNull();
    expect(publicOrigin(production("https://shop.example/"), "https://attacker.example/x")).toBe(
      "https://shop.example",
    );
    expect(publicOrigin({ ENVIRONMENT: "production", PUBLIC_ORIGIN: " https://Shop.Example:8443 " })).toBe(
      "https://shop.example:8443",
    );
  });

  it("development and test use PUBLIC_ORIGIN when set, else the worker's own URL", () => {
    expect(publicOriginProblem(development(""))).toBeNull();
    expect(publicOrigin(development(""), "http://localhost:8787/backend/checkout")).toBe("http://localhost:8787");
    expect(publicOrigin(development("http://127.0.0.1:9000"), "http://localhost:8787/x")).toBe("http://127.0.0.1:9000");
    expect(publicOriginProblem(development("ftp://shop.example"))).toBe("invalid");
    expect(() => publicOrigin(development(""))).toThrow(/PUBLIC_ORIGIN/);
  });
});
