import { reportChunkLoadError } from "./chunk-reload";
import { haltIdleWork } from "./idle";

/**
 * Service worker registration at /sw.js with scope / (spec §7), through workbox-window, which is
 * imported lazily after hydration so it stays out of the first bundle. The UI (PwaStatus) passes
 * callbacks and shows each state in the shopper's language.
 */
export type ServiceWorkerState =
  /** The first service worker finished installing. */
  | "installed"
  /** It took control: the shop's shell is cached and works offline. */
  | "offline-ready"
  /** A new version is installed and waits for the shopper (asked, and answered "later"). */
  | "waiting"
  /** A new version is waiting and the shopper is asked to reload; accepting reloads the page when it takes control. */
  | "need-refresh";

export type InstallState = "unavailable" | "available" | "accepted" | "dismissed";

/** Chromium's install prompt event (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed"; platform: string }>;
}

export interface PwaCallbacks {
  onState: (state: ServiceWorkerState) => void;
  onRegistrationError: (error: unknown) => void;
}

export interface PwaController {
  /** The shopper accepted the update: activate the waiting worker; the page reloads when it takes control. */
  acceptUpdate: () => void;
}

export const SW_URL = "/sw.js";
export const SW_SCOPE = "/";

export async function registerServiceWorker(callbacks: PwaCallbacks): Promise<PwaController | null> {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return null;
  try {
    const { Workbox } = await import("workbox-window");
    const wb = new Workbox(SW_URL, { scope: SW_SCOPE });
    let accepted = false;

    wb.addEventListener("installed", (event) => {
      if (!event.isUpdate) callbacks.onState("installed");
    });
    wb.addEventListener("controlling", (event) => {
      // The first worker claiming the page: offline-ready. A new version after the shopper
      // accepted it: reload so the page runs the code the worker serves.
      if (!event.isUpdate) callbacks.onState("offline-ready");
      else if (accepted) window.location.reload();
    });
    wb.addEventListener("waiting", () => callbacks.onState("need-refresh"));

    const registration = await wb.register();
    // workbox-window misses a new version that was already installing when this page registered
    // (the browser checks for one on every navigation), so the registration is watched as well.
    const watch = (worker: ServiceWorker | null | undefined) => {
      worker?.addEventListener("statechange", () => {
        if (worker.state === "installed" && navigator.serviceWorker.controller) callbacks.onState("need-refresh");
      });
    };
    if (registration) {
      if (registration.waiting && navigator.serviceWorker.controller) callbacks.onState("need-refresh");
      watch(registration.installing);
      registration.addEventListener("updatefound", () => watch(registration.installing));
    }
    return {
      acceptUpdate() {
        accepted = true;
        // Chromium activates a worker that skips waiting once the old one has stopped, checking
        // every second. A request the page makes in that moment starts the old worker again, and
        // the activation then waits until it idles out: in the deploy journey (test/e2e/pwa.e2e.ts)
        // the new worker often stayed waiting, the requests being this page's idle-time prefetches
        // (docs/PERFORMANCE.md, "Measurements behind the code"). The page is about to reload, so
        // its idle work stops here. (Reloading anyway after a few seconds was tried: in that
        // state the reload itself hung, in every try.)
        haltIdleWork();
        wb.messageSkipWaiting();
      },
    };
  } catch (error) {
    // A chunk that cannot load after a deploy reloads the page (once); anything else is a
    // registration error the UI shows.
    if (!reportChunkLoadError(error)) callbacks.onRegistrationError(error);
    return null;
  }
}

/** Shows the captured install prompt and reports what the shopper chose. */
export async function promptInstall(event: BeforeInstallPromptEvent): Promise<"accepted" | "dismissed"> {
  await event.prompt();
  const { outcome } = await event.userChoice;
  return outcome;
}
