import type { RouterContextProvider } from "react-router";
import { shopContext } from "../context";

/**
 * The catalogue's reference lists that every render reads and that change only with the catalogue
 * (the category tree of the header and the filters, the brands of the filters, the store's name
 * and logo, whose save bumps the catalogue version), kept per isolate
 * while the catalogue version they were read under stands.
 *
 * Why: each was a backend call per fresh render, answered from the backend's memory but still a
 * request through its middleware, a Response and a JSON parse: about 0.5 ms of the Worker's CPU
 * per page (docs/PERFORMANCE.md, "A fresh render within the CPU budget"). These lists carry no
 * stock, price or availability, whose freshness the backend checks on every read, so the version
 * is the whole of their freshness: a console edit moves it, and the next render after the isolate
 * learns the new version (at most a second, `ShopContext.catalogueVersion`, as the page cache)
 * reads them again. A backend that has no version (null) is asked on every render, as before.
 * Entries live at most REFERENCE_TTL_MS anyway, and a failed read is not kept.
 */
export const REFERENCE_TTL_MS = 60_000;

interface Kept {
  version: number;
  at: number;
  value: Promise<unknown>;
}

const kept = new Map<string, Kept>();

/** `read()`'s answer for `key` (a path and locale), shared while the catalogue version stands. */
export function referenceList<T>(
  context: Readonly<RouterContextProvider>,
  key: string,
  read: () => Promise<T[]>,
): Promise<T[]> {
  // An empty answer (from a backend that could not say) is asked again next time.
  return referenceValue(context, key, read, (list) => list.length > 0);
}

/**
 * Like `referenceList`, for one value (the store's name and logo: contract/settings.ts); `keep`
 * says whether an answer is worth keeping.
 */
export async function referenceValue<T>(
  context: Readonly<RouterContextProvider>,
  key: string,
  read: () => Promise<T>,
  keep: (value: T) => boolean,
): Promise<T> {
  const version = await context.get(shopContext).catalogueVersion();
  if (version === null) return read();
  const now = Date.now();
  const entry = kept.get(key);
  if (entry && entry.version === version && now - entry.at < REFERENCE_TTL_MS) return entry.value as Promise<T>;
  const value = read();
  kept.set(key, { version, at: now, value });
  // A failure, or an answer not worth keeping, is asked again next time.
  value.then(
    (answer) => {
      if (!keep(answer) && kept.get(key)?.value === value) kept.delete(key);
    },
    () => {
      if (kept.get(key)?.value === value) kept.delete(key);
    },
  );
  return value;
}

/** Forgets every kept list (tests that change the catalogue and look at once). */
export function forgetReferenceLists(): void {
  kept.clear();
}
