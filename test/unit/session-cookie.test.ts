import { describe, expect, it } from "vitest";
import { sessionCookieName } from "../../worker/lib/cookies";

describe("the session cookie's name (worker/lib/cookies.ts)", () => {
  it("is plain `sid` only on http://localhost and http://127.0.0.1, where Secure cannot be set", () => {
    for (const url of [
      "http://localhost:8787/en",
      "http://localhost/",
      "http://127.0.0.1:41234/api/get-user",
      "http://localhost?x=1",
    ])
      expect(sessionCookieName(url), url).toBe("sid");
  });

  it("is `__Host-sid` everywhere else, look-alike hosts included", () => {
    for (const url of [
      "https://shop.test/en",
      "https://localhost/",
      "http://localhost.example.com/",
      "http://127.0.0.1.nip.io/",
      "http://localhostx/",
      "http://shop.test/http://localhost/",
    ])
      expect(sessionCookieName(url), url).toBe("__Host-sid");
  });
});
