/**
 * One value an isolate reads from elsewhere and trusts for `ttlMs` (the catalogue version: the
 * backend's read of D1, and the page cache's question to the backend). Concurrent callers share
 * one read. With `defer` (the request's waitUntil), a value past half its life is read again
 * after the answer, so a busy isolate's requests never wait for it, and none is answered with a
 * reading older than `ttlMs`. A reading is stamped with the time it started; one still under way
 * when the value is forgotten (this isolate changed it) is not kept. A read that fails is not
 * kept either: the caller answers from `last`, or as it sees fit.
 */
export class ReadAhead<T> {
  #known: { at: number; value: T } | undefined;
  #reading: Promise<T> | undefined;
  #generation = 0;

  constructor(private readonly ttlMs: number) {}

  /** The last value read, whatever its age (a caller's answer when a read fails). */
  get last(): T | undefined {
    return this.#known?.value;
  }

  /** The value, read at most `maxAgeMs` ago (by default its time to live). */
  get(read: () => Promise<T>, defer?: (task: Promise<unknown>) => void, maxAgeMs = this.ttlMs): Promise<T> {
    const age = this.#known ? Date.now() - this.#known.at : Infinity;
    if (this.#known && age < maxAgeMs) {
      // A failure here has been reported by the reader; the value known still stands.
      if (defer && !this.#reading && age >= this.ttlMs / 2) defer(this.#read(read).catch(() => undefined));
      return Promise.resolve(this.#known.value);
    }
    return this.#read(read);
  }

  /** Forgets the value (this isolate changed it): the next caller reads it again. */
  forget(): void {
    this.#known = undefined;
    this.#reading = undefined;
    this.#generation++;
  }

  #read(read: () => Promise<T>): Promise<T> {
    if (this.#reading) return this.#reading;
    const reading: Promise<T> = (async () => {
      const [at, generation] = [Date.now(), this.#generation];
      const value = await read();
      if (generation === this.#generation) this.#known = { at, value };
      return value;
    })().finally(() => {
      if (this.#reading === reading) this.#reading = undefined;
    });
    this.#reading = reading;
    return reading;
  }
}
