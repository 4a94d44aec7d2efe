import { describe, expect, it } from "vitest";
import { registerMessages, translate } from "../../app/lib/i18n";

// The server remembers messages, with their parameters' values (app/lib/i18n.ts): what it answers must stay
// what rosetta answers, and follow messages registered later.
describe("translate on the server", () => {
  it("runs where the memo is compiled in", () => {
    expect(import.meta.env.SSR).toBe(true);
  });

  it("answers a remembered message as before, and a changed one once it is registered", () => {
    registerMessages("en", { memoTest: { plain: "First", count: "{{n}} items" } });
    expect(translate("en", "memoTest.plain")).toBe("First");
    expect(translate("en", "memoTest.plain")).toBe("First");
    registerMessages("en", { memoTest: { plain: "Second", count: "{{n}} items" } });
    expect(translate("en", "memoTest.plain")).toBe("Second");
  });

  it("fills parameters on every call and keeps locales apart", () => {
    registerMessages("ar", { memoTest: { plain: "أول", count: "{{n}} عناصر" } });
    expect(translate("en", "memoTest.count", { n: 2 })).toBe("2 items");
    expect(translate("en", "memoTest.count", { n: 3 })).toBe("3 items");
    expect(translate("ar", "memoTest.plain")).toBe("أول");
    expect(translate("en", "memoTest.plain")).toBe("Second");
  });

  it("remembers a message per parameter value, and a value that holds the key's separator is not remembered", () => {
    registerMessages("en", { memoTest: { two: "{{a}} and {{b}}", one: "{{a}}" } });
    expect(translate("en", "memoTest.two", { a: "x", b: "y" })).toBe("x and y");
    expect(translate("en", "memoTest.two", { a: "x", b: "z" })).toBe("x and z");
    expect(translate("en", "memoTest.two", { b: "y", a: "x" })).toBe("x and y");
    // Were values joined without a check, { a: "x\u0000b\u0000y" } would be { a: "x", b: "y" }'s key.
    expect(translate("en", "memoTest.one", { a: "x", b: "y" })).toBe("x");
    expect(translate("en", "memoTest.one", { a: "x\u0000b\u0000y" })).toBe("x\u0000b\u0000y");
    registerMessages("en", { memoTest: { two: "{{a}} or {{b}}", one: "{{a}}!" } });
    expect(translate("en", "memoTest.two", { a: "x", b: "y" })).toBe("x or y");
    expect(translate("en", "memoTest.one", { a: "x" })).toBe("x!");
  });
});
