import type { Locale } from "../../contract/locale";
import { whenIdle } from "./idle";
import { pageTypeOf } from "./rum-page";

/**
 * Field data (issue 23), the part every visit loads: after hydration (client entry), once the page
 * is idle, it decides whether this visit is in the sample (the root loader's rumSampleRate,
 * RUM_SAMPLE_RATE) and only then loads web-vitals and the beacon (client/rum.ts). Nothing of it
 * is in the first load; a visit outside the sample loads nothing more.
 *
 * The page type comes from the landing route's id, read from React Router's data router
 * (`window.__reactRouterDataRouter`, which HydratedRouter sets), as does the sample rate from the
 * root's loader data: so the layout carries no code for it. The visit's figures belong to the page
 * it landed on (LCP, FCP, TTFB are the landing's; INP and CLS run over the document's life).
 */

interface RouterState {
  matches: { route: { id: string } }[];
  loaderData: Record<string, unknown>;
}

// Importing the module starts it (the client entry's one line): the first load pays the least.
whenIdle(() => {
  const state = (window as { __reactRouterDataRouter?: { state: RouterState } }).__reactRouterDataRouter?.state;
  const rate = (state?.loaderData.root as { rumSampleRate?: unknown } | undefined)?.rumSampleRate;
  const routeId = state?.matches.at(-1)?.route.id;
  if (typeof rate !== "number" || !routeId || !(Math.random() < rate)) return;
  const page = pageTypeOf(routeId, location.search);
  const locale = document.documentElement.lang.split("-")[0];
  if (!page || (locale !== "en" && locale !== "ar")) return;
  void import("./rum").then((m) => m.reportWebVitals(page, locale as Locale));
});
