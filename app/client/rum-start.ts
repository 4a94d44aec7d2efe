import type { Locale } from "../../contract/locale";
import { whenIdle } from "./idle";
import { pageTypeOf } from "./rum-page";

/**
 * Field data, the part every visit loads: after hydration (client entry), once the page
 * is idle, it decides whether this visit is in the sample (the root loader's rumSampleRate,
 * RUM_SAMPLE_RATE) and only then loads web-vitals and the beacon (client/rum.ts). Nothing of it
 * is in the first load; a visit outside the sample loads nothing more.
 *
 * The sample rate and the landing route's id come from the document (the root layout's
 * `<meta name="souq-rum">`, written with React Router's public `useMatches`): the layout only writes
 * it. The visit's figures belong to the page it landed on (LCP, FCP, TTFB are the
 * landing's; INP and CLS run over the document's life).
 */

// Importing the module starts it (the client entry's one line): the first load pays the least.
const landing = document.querySelector<HTMLMetaElement>('meta[name="souq-rum"]')?.content.split(" ") ?? [];

whenIdle(() => {
  const rate = Number(landing[0]);
  const routeId = landing[1];
  if (!(rate > 0) || !routeId || !(Math.random() < rate)) return;
  const page = pageTypeOf(routeId, location.search);
  const locale = document.documentElement.lang.split("-")[0];
  if (!page || (locale !== "en" && locale !== "ar")) return;
  void import("./rum").then((m) => m.reportWebVitals(page, locale as Locale));
});
