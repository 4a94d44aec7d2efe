import { describe, expect, it } from "vitest";
import { IsolateMemory } from "../../contract/server/isolate-memory";

describe("an isolate's memory (the first cache tier and the page cache)", () => {
  it("answers a value until its time to live has passed, then forgets it", () => {
    const memory = new IsolateMemory<string>(4);
    memory.set("/en", "page", 5_000, 1_000);
    expect(memory.get("/en", 5_999)).toBe("page");
    expect(memory.get("/en", 6_000)).toBeUndefined();
    // Forgotten for good: a later clock does not bring it back.
    expect(memory.get("/en", 1_000)).toBeUndefined();
  });

  it("past its cap drops the least recently used entry, counting reads as use", () => {
    const memory = new IsolateMemory<number>(2);
    memory.set("a", 1, 5_000, 0);
    memory.set("b", 2, 5_000, 0);
    expect(memory.get("a", 1)).toBe(1);
    memory.set("c", 3, 5_000, 2);
    expect(memory.get("b", 3)).toBeUndefined();
    expect(memory.get("a", 3)).toBe(1);
    expect(memory.get("c", 3)).toBe(3);
  });

  it("keeps nothing with no time to live, and forgets everything on clear", () => {
    const memory = new IsolateMemory<string>(2);
    memory.set("x", "never", 0, 0);
    expect(memory.get("x", 0)).toBeUndefined();
    memory.set("y", "kept", 1_000, 0);
    memory.clear();
    expect(memory.get("y", 1)).toBeUndefined();
  });
});
