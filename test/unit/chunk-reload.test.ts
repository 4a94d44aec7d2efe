import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CHUNK_RELOAD_GUARD_MS, createChunkReloader, isChunkLoadError } from "../../app/client/chunk-reload";

/** Session storage that survives "reloads" (new reloaders), as the browser's does within a tab. */
function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
}

function page(storage: ReturnType<typeof memoryStorage>, pathname = "/en/products") {
  const location = { pathname, reload: vi.fn() };
  const warn = vi.fn();
  const reloader = createChunkReloader({ storage, location, now: () => Date.now(), warn });
  return { location, warn, reloader };
}

const chunkError = new TypeError(
  "Failed to fetch dynamically imported module: http://127.0.0.1/assets/products-AbC123.js",
);

describe("chunk-load failure reload", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-22T12:00:00Z"));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("recognises the browsers' chunk load errors and nothing else", () => {
    expect(isChunkLoadError(chunkError)).toBe(true);
    expect(isChunkLoadError(new TypeError("error loading dynamically imported module: /assets/x.js"))).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError({ name: "ChunkLoadError", message: "Loading chunk 42 failed." })).toBe(true);
    expect(isChunkLoadError("Unable to preload CSS for /assets/app-1.css")).toBe(true);
    expect(isChunkLoadError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isChunkLoadError(new TypeError("Failed to fetch"))).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });

  it("a chunk failure reloads the page once and keeps the time in session storage under the path", () => {
    const storage = memoryStorage();
    const first = page(storage);
    expect(first.reloader.handle(chunkError)).toBe(true);
    expect(first.location.reload).toHaveBeenCalledTimes(1);
    expect(storage.map.get("chunk-reload:/en/products")).toBe(String(Date.now()));
    // More failures on the same, already reloading page do not reload again.
    expect(first.reloader.handle(chunkError)).toBe(true);
    expect(first.location.reload).toHaveBeenCalledTimes(1);
  });

  it("after the reload, the same failure within 10,000 ms does not reload again: no loop", () => {
    const storage = memoryStorage();
    page(storage).reloader.handle(chunkError);
    vi.advanceTimersByTime(CHUNK_RELOAD_GUARD_MS - 1);
    const reloaded = page(storage);
    expect(reloaded.reloader.handle(chunkError)).toBe(false);
    expect(reloaded.location.reload).not.toHaveBeenCalled();
    expect(reloaded.warn).toHaveBeenCalledWith(expect.stringContaining("not reloading again"));
  });

  it("once the 10,000 ms guard has passed, a new failure may reload once more", () => {
    expect(CHUNK_RELOAD_GUARD_MS).toBe(10_000);
    const storage = memoryStorage();
    page(storage).reloader.handle(chunkError);
    vi.advanceTimersByTime(CHUNK_RELOAD_GUARD_MS);
    const later = page(storage);
    expect(later.reloader.handle(chunkError)).toBe(true);
    expect(later.location.reload).toHaveBeenCalledTimes(1);
  });

  it("the guard is per path: another page may still reload once", () => {
    const storage = memoryStorage();
    page(storage, "/en/products").reloader.handle(chunkError);
    const other = page(storage, "/ar/services");
    expect(other.reloader.handle(chunkError)).toBe(true);
    expect(other.location.reload).toHaveBeenCalledTimes(1);
    expect([...storage.map.keys()].sort()).toEqual(["chunk-reload:/ar/services", "chunk-reload:/en/products"]);
  });

  it("without session storage it never reloads, since the guard could not be kept", () => {
    const broken = {
      getItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
      setItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
    };
    const location = { pathname: "/en", reload: vi.fn() };
    const reloader = createChunkReloader({ storage: broken, location, now: () => Date.now(), warn: vi.fn() });
    expect(reloader.handle(chunkError)).toBe(false);
    expect(location.reload).not.toHaveBeenCalled();
  });
});
