import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { clearStored, readStored, writeStored } from "../../app/lib/tab-storage";

/** A session storage like the browser's, so the module runs as it does in a tab. */
class MemoryStorage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(i: number) {
    return [...this.items.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

const g = globalThis as unknown as { window?: { sessionStorage: unknown } };
let storage: MemoryStorage;

beforeEach(() => {
  storage = new MemoryStorage();
  g.window = { sessionStorage: storage };
});
afterEach(() => {
  delete g.window;
});

describe("session storage values (spec §3 keys)", () => {
  it("reads back what was written under token, userId, guestId and products", () => {
    writeStored("token", "abcdefghijklmnopqrstuvwxyz012345");
    writeStored("userId", "42");
    writeStored("guestId", "0b6c3f3e-1111-4222-8333-444455556666");
    writeStored("products", "true");
    expect(readStored("token")).toBe("abcdefghijklmnopqrstuvwxyz012345");
    expect(readStored("userId")).toBe("42");
    expect(readStored("guestId")).toBe("0b6c3f3e-1111-4222-8333-444455556666");
    expect(readStored("products")).toBe("true");
  });

  it("malformed values are ignored safely, as if absent", () => {
    for (const bad of [
      "",
      "null",
      "undefined",
      "<script>alert(1)</script>",
      "a b c",
      "x".repeat(600),
      "\u0000\u0001",
    ]) {
      storage.setItem("token", bad);
      storage.setItem("guestId", bad);
      expect(readStored("token"), JSON.stringify(bad)).toBeNull();
      expect(readStored("guestId"), JSON.stringify(bad)).toBeNull();
    }
  });

  it("a blocked or missing storage is survived: reads are null, writes are dropped", () => {
    g.window = {
      get sessionStorage(): never {
        throw new DOMException("The operation is insecure.", "SecurityError");
      },
    } as unknown as { sessionStorage: unknown };
    expect(readStored("token")).toBeNull();
    expect(() => writeStored("token", "abcdefghijklmnopqrstuvwxyz012345")).not.toThrow();
    expect(() => clearStored()).not.toThrow();
    delete g.window;
    expect(readStored("userId")).toBeNull();
  });

  it("a full storage does not break the page", () => {
    storage.setItem = () => {
      throw new DOMException("Quota exceeded", "QuotaExceededError");
    };
    expect(() => writeStored("products", "true")).not.toThrow();
  });

  it("logout's clear empties every key", () => {
    writeStored("token", "abcdefghijklmnopqrstuvwxyz012345");
    writeStored("guestId", "0b6c3f3e-1111-4222-8333-444455556666");
    clearStored();
    expect(storage.length).toBe(0);
  });
});
