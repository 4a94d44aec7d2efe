/**
 * A map kept in a Worker isolate's memory, shared by the requests that isolate serves: each entry
 * expires after its time to live, and past `maxEntries` the least recently used goes first, so a
 * busy isolate's 128 MB are never eaten by it. Used by the catalogue reads' first cache tier
 * (worker/backend/cache.ts) and the page cache (worker/page-cache.ts).
 */
export class IsolateMemory<V> {
  private readonly entries = new Map<string, { expires: number; value: V }>();

  constructor(private readonly maxEntries: number) {}

  /** The live value under key, or undefined (an expired one is dropped). */
  get(key: string, now: number = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expires <= now) return undefined;
    // Map order is insertion order: re-inserting keeps the most recently used last.
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, ttlMs: number, now: number = Date.now()): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { expires: now + ttlMs, value });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
