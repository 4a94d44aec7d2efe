import { lazy, Suspense } from "react";
import { Stylesheet } from "./Stylesheet";
import pwaCss from "../styles/pwa.css?url";

/**
 * The live states, with the service worker's registration and the install prompt: a chunk of
 * their own, loaded as the page hydrates rather than on the first load of every page (about
 * 1.2 KB gzip off each page's budget). Registration starts from it, so nothing it listens for
 * can happen before it is there.
 */
const PwaStatusLive = lazy(() => import("./PwaStatusLive"));

/**
 * The app-and-installation states of spec §4, shown in the shopper's language: service worker
 * installed / offline-ready / waiting / need-refresh (with reload), registration error, the
 * install prompt (install, accepted, cancelled), a pending build update (the next navigation is a
 * full reload) and being offline. Rendered once, in the root.
 *
 * On the server nothing has happened yet (no worker, no prompt, online), so every page renders
 * `PwaStatusAtRest`: the same markup without six atoms, the navigation and the effects, which were
 * a share of each fresh render's CPU (docs/PERFORMANCE.md, "A fresh render within the CPU budget").
 * The browser keeps that markup in a Suspense boundary until `PwaStatusLive` has loaded, then
 * hydrates it with `PwaStatusLive`, whose first render is that markup
 * (test/unit/pwa-status.test.ts compares them). `import.meta.env.SSR` is a build-time constant.
 */
export function PwaStatus() {
  // The sheet outside the boundary: a stylesheet inside one makes React stream the boundary apart
  // from the page (a hidden segment moved by a script) instead of in place.
  return (
    <>
      <Stylesheet href={pwaCss} />
      <Suspense fallback={<PwaStatusAtRest />}>
        {import.meta.env.SSR ? <PwaStatusAtRest /> : <PwaStatusLive />}
      </Suspense>
    </>
  );
}

/** `PwaStatusLive`'s first render: the states' initial values (state/pwa.ts). */
export function PwaStatusAtRest() {
  return (
    <div className="pwa-status" data-sw-state="" data-install-state="unavailable">
      <p className="pwa-status__offline" role="status" hidden />
    </div>
  );
}
