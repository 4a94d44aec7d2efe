import { deviceTypeInBrowser } from "../device";
import type { Locale } from "../locales";
import { readStored } from "../tab-storage";
import { createApi, type Api } from "./client";

let base = "/backend";
let lookupBase = "/backend";

/** Set once from the root loader: where the browser reaches the backend. */
export function configureBrowserApi(opts: { backendBase: string; lookupBase?: string }): void {
  base = opts.backendBase.replace(/\/$/, "");
  lookupBase = (opts.lookupBase ?? opts.backendBase).replace(/\/$/, "");
}

/** The backend client in the browser, with the identity held in session storage. */
export function browserApi(locale: Locale): Api {
  return createApi(
    (path, init) => fetch(`${base}${path}`, init),
    { locale, deviceType: deviceTypeInBrowser(), token: readStored("token"), guestId: readStored("guestId") },
    (path, init) => fetch(`${lookupBase}${path}`, init),
  );
}

/**
 * The own server's calls that speak the backend's language (spec §7 "own-server local calls",
 * `/api/...`): the same client, headers and error handling, only the base differs.
 */
export function ownServerApi(locale: Locale): Api {
  return createApi((path, init) => fetch(`/api${path}`, { ...init, credentials: "same-origin" }), {
    locale,
    deviceType: deviceTypeInBrowser(),
    token: readStored("token"),
    guestId: readStored("guestId"),
  });
}
