/**
 * Chunk load failures (spec §8 "Other errors"): after a deploy, a page opened before it may ask
 * for a hashed chunk that no longer exists. The page then reloads once per path, to pick up the
 * new build; a guard kept 10,000 ms in session storage (spec §9) stops a reload loop when the
 * chunk keeps failing.
 *
 * React Router reloads by itself when a route module fails to load during a client navigation
 * (its own behaviour, on the page the shopper is still on); this module covers every other lazy
 * chunk: dynamic imports (Vite's `vite:preloadError`), rejected imports nobody caught, and
 * failed <script>/<link> loads under /assets/.
 */
import { isAbortRejection } from "./abort-rejections";

export const CHUNK_RELOAD_GUARD_MS = 10_000;
export const CHUNK_RELOAD_KEY_PREFIX = "chunk-reload:";

const CHUNK_ERROR_MESSAGES = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Loading (CSS )?chunk [\w-]+ failed/i,
  /ChunkLoadError/,
  /Unable to preload CSS/i,
  /is not a valid JavaScript MIME type/i,
];

/** Whether an error (or rejection reason, or message) is a failed chunk load. */
export function isChunkLoadError(reason: unknown): boolean {
  if (reason === null || reason === undefined) return false;
  const text =
    typeof reason === "string"
      ? reason
      : reason instanceof Error
        ? `${reason.name}: ${reason.message}`
        : typeof reason === "object" && "message" in reason
          ? String((reason as { message: unknown }).message)
          : "";
  return CHUNK_ERROR_MESSAGES.some((re) => re.test(text));
}

export interface ChunkReloadDeps {
  storage: Pick<Storage, "getItem" | "setItem">;
  location: { pathname: string; reload: () => void };
  now: () => number;
  warn?: (message: string) => void;
}

export interface ChunkReloader {
  /** Handles a chunk load failure; true when the page is being reloaded. */
  handle: (error: unknown) => boolean;
}

/** The reload-once-per-path rule, with its dependencies injected (tests pass fakes). */
export function createChunkReloader(deps: ChunkReloadDeps): ChunkReloader {
  let reloading = false;
  return {
    handle(error) {
      if (reloading) return true;
      const key = `${CHUNK_RELOAD_KEY_PREFIX}${deps.location.pathname}`;
      const now = deps.now();
      let last = Number.NaN;
      try {
        last = Number(deps.storage.getItem(key));
      } catch {
        // Storage unavailable (privacy mode): treat as never reloaded, and the write below fails too.
      }
      if (Number.isFinite(last) && last > 0 && now - last < CHUNK_RELOAD_GUARD_MS) {
        (deps.warn ?? console.warn)(
          `[chunk-reload] ${deps.location.pathname} already reloaded ${now - last} ms ago; not reloading again: ${String(error)}`,
        );
        return false;
      }
      try {
        deps.storage.setItem(key, String(now));
      } catch {
        // Without storage the guard cannot be kept, so do not risk a loop.
        return false;
      }
      reloading = true;
      deps.location.reload();
      return true;
    },
  };
}

let installed: ChunkReloader | undefined;

/** Reports a chunk load failure caught by the caller (for example a lazy import in app code). */
export function reportChunkLoadError(error: unknown): boolean {
  return isChunkLoadError(error) && installed !== undefined && installed.handle(error);
}

/**
 * Listens for chunk load failures on the window, and drops the report of an aborted request's
 * rejection (client/abort-rejections.ts); returns a function that removes the listeners.
 */
export function installChunkReload(
  target: Window = window,
  reloader: ChunkReloader = createChunkReloader({
    storage: target.sessionStorage,
    location: target.location,
    now: () => Date.now(),
  }),
): () => void {
  installed = reloader;
  const onPreloadError = (event: Event) => {
    reloader.handle((event as Event & { payload?: unknown }).payload ?? "Failed to fetch dynamically imported module");
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    // An aborted request nobody waited for is not reported either (client/abort-rejections.ts).
    if (isAbortRejection(event.reason) || (isChunkLoadError(event.reason) && reloader.handle(event.reason)))
      event.preventDefault();
  };
  const onError = (event: Event) => {
    if (event instanceof ErrorEvent) {
      if (isChunkLoadError(event.error ?? event.message)) reloader.handle(event.error ?? event.message);
      return;
    }
    // Resource errors do not bubble; this listener is on the capture phase to see them.
    const el = event.target;
    const src =
      el instanceof HTMLScriptElement
        ? el.src
        : el instanceof HTMLLinkElement && (el.rel === "modulepreload" || el.rel === "stylesheet")
          ? el.href
          : "";
    if (src && new URL(src, target.location.href).pathname.startsWith("/assets/"))
      reloader.handle(`Loading chunk ${src} failed`);
  };
  target.addEventListener("vite:preloadError", onPreloadError);
  target.addEventListener("unhandledrejection", onRejection);
  target.addEventListener("error", onError, true);
  return () => {
    target.removeEventListener("vite:preloadError", onPreloadError);
    target.removeEventListener("unhandledrejection", onRejection);
    target.removeEventListener("error", onError, true);
    if (installed === reloader) installed = undefined;
  };
}
