import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { registerServiceWorker, type ServiceWorkerState } from "../../app/client/pwa";

// Spec §4 (docs/SPEC.md row 54): the service worker states as workbox-window reports them. The
// browser journeys (test/e2e/pwa.e2e.ts) see offline-ready, need-refresh and waiting; "installed"
// is superseded by "offline-ready" within the same render there, so its mapping is proved here,
// with a stand-in for workbox-window's events.
type Listener = (event: { isUpdate?: boolean }) => void;
const listeners = new Map<string, Listener[]>();
vi.mock("workbox-window", () => ({
  Workbox: class {
    constructor(
      readonly url: string,
      readonly options: { scope: string },
    ) {
      registered.push(`${url} ${options.scope}`);
    }
    addEventListener(type: string, listener: Listener) {
      listeners.set(type, [...(listeners.get(type) ?? []), listener]);
    }
    register() {
      return Promise.resolve(undefined);
    }
    messageSkipWaiting() {}
  },
}));
const registered: string[] = [];
const fire = (type: string, event: { isUpdate?: boolean } = {}) => listeners.get(type)?.forEach((l) => l(event));

beforeEach(() => {
  listeners.clear();
  registered.length = 0;
  vi.stubGlobal("navigator", { serviceWorker: { controller: null } });
});
afterEach(() => vi.unstubAllGlobals());

describe("service worker states", () => {
  it("§4 row 54: a first install is 'installed', then 'offline-ready' when it takes control; a new version waiting is 'need-refresh'", async () => {
    const states: ServiceWorkerState[] = [];
    const controller = await registerServiceWorker({
      onState: (s) => states.push(s),
      onRegistrationError: (error) => {
        throw error;
      },
    });
    expect(controller).not.toBeNull();
    expect(registered).toEqual(["/sw.js /"]);

    fire("installed", { isUpdate: false });
    fire("controlling", { isUpdate: false });
    expect(states).toEqual(["installed", "offline-ready"]);

    // A later version: its install is not announced again; it waits for the shopper.
    fire("installed", { isUpdate: true });
    fire("waiting");
    expect(states).toEqual(["installed", "offline-ready", "need-refresh"]);
  });
});
