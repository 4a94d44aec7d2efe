import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from "web-vitals";
import type { Locale } from "../../contract/locale";
import {
  RUM_CONNECTIONS,
  type RumBeacon,
  type RumConnection,
  type RumMetricReport,
  type RumNavigationType,
  type RumPageType,
} from "../../contract/rum";

/**
 * Field data, loaded only for a sampled visit (client/rum-start.ts): web-vitals reads
 * LCP, INP, CLS, TTFB and FCP, and every figure it reports waits here until the page is hidden
 * (visibilitychange to hidden; pagehide of a hidden page), then all go in one `navigator.sendBeacon` to
 * /api/rum. No personal data: the page type, the locale, the figures and their ratings, the
 * navigation type and the connection's effective type; never the URL, an id or the visitor.
 *
 * web-vitals reports LCP at the first input or when the page is hidden, INP and CLS when hidden,
 * each from its own listener on `window` in the capture phase: this module listens on `document`,
 * so its flush runs after they have reported. A page hidden, shown and hidden again sends the
 * figures that changed in between in a second beacon. Loaded once the page is idle, web-vitals
 * reads LCP, FCP, TTFB, CLS and the first input from the browser's buffered entries; an
 * interaction before it loaded counts toward INP only as far as the browser buffered its timing.
 */
export const RUM_ENDPOINT = "/api/rum";

const round = (value: number) => Math.round(value * 1000) / 1000;

function connection(): RumConnection | undefined {
  const type = (navigator as { connection?: { effectiveType?: string } }).connection?.effectiveType;
  return RUM_CONNECTIONS.find((c) => c === type);
}

export function reportWebVitals(page: RumPageType, locale: Locale): void {
  const pending = new Map<string, RumMetricReport>();
  let navigation: RumNavigationType = "navigate";
  const take = (m: Metric) => {
    pending.set(m.name, { name: m.name, value: round(m.value), rating: m.rating });
    navigation = m.navigationType;
  };
  onTTFB(take);
  onFCP(take);
  onLCP(take);
  onINP(take);
  onCLS(take);

  const flush = () => {
    if (pending.size === 0) return;
    const beacon: RumBeacon = { page, locale, navigation, connection: connection(), metrics: [...pending.values()] };
    pending.clear();
    navigator.sendBeacon(RUM_ENDPOINT, new Blob([JSON.stringify(beacon)], { type: "application/json" }));
  };
  // Leaving for another document, Chromium fires pagehide first, then visibilitychange (hidden),
  // where web-vitals reports INP and CLS: so pagehide sends only for a page already hidden (the
  // figures taken since), and the beacon of a page being left goes with visibilitychange.
  const flushIfHidden = () => {
    if (document.visibilityState === "hidden") flush();
  };
  document.addEventListener("visibilitychange", flushIfHidden);
  addEventListener("pagehide", flushIfHidden);
}
