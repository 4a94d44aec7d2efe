// Field data: the Core Web Vitals of real visits, as the storefront's beacon sends them
// to the own server's POST /api/rum, and as the console reads them back from
// GET /backend/admin/rum. No personal data: a page *type*, never a URL, a slug or an id.
import type { Locale } from "./locale.ts";

/** The metrics the beacon carries (web-vitals' names). FCP is kept too; the console shows the other four. */
export const RUM_METRICS = ["LCP", "INP", "CLS", "TTFB", "FCP"] as const;
export type RumMetric = (typeof RUM_METRICS)[number];

/** What the console's field-data view shows, in this order. */
export const RUM_SHOWN: readonly RumMetric[] = ["LCP", "INP", "CLS", "TTFB"];

/** The kinds of page a visit landed on, from its route (app/client/rum-page.ts maps them). */
export const RUM_PAGE_TYPES = [
  "home",
  "list",
  "product",
  "search",
  "cart",
  "checkout",
  "account",
  "content",
  "other",
] as const;
export type RumPageType = (typeof RUM_PAGE_TYPES)[number];

export const RUM_RATINGS = ["good", "needs-improvement", "poor"] as const;
export type RumRating = (typeof RUM_RATINGS)[number];

/** web-vitals' navigation types. */
export const RUM_NAVIGATION_TYPES = [
  "navigate",
  "reload",
  "back-forward",
  "back-forward-cache",
  "prerender",
  "restore",
  "soft-navigation",
] as const;
export type RumNavigationType = (typeof RUM_NAVIGATION_TYPES)[number];

/** The Network Information API's effective connection types. */
export const RUM_CONNECTIONS = ["slow-2g", "2g", "3g", "4g"] as const;
export type RumConnection = (typeof RUM_CONNECTIONS)[number];

/**
 * The largest value taken for each metric: milliseconds for all but CLS (unitless). A value past
 * it is not a real visit's (or a tab left in the background) and is refused.
 */
export const RUM_MAX_VALUE: Record<RumMetric, number> = {
  LCP: 120_000,
  INP: 60_000,
  CLS: 100,
  TTFB: 120_000,
  FCP: 120_000,
};

/** At most this many metrics in one beacon (a visit reports each metric once or a few times). */
export const RUM_MAX_METRICS = 10;

export interface RumMetricReport {
  name: RumMetric;
  value: number;
  rating: RumRating;
}

/** One beacon: the metrics of one page view, sent when the page is hidden. */
export interface RumBeacon {
  page: RumPageType;
  locale: Locale;
  navigation: RumNavigationType;
  connection?: RumConnection;
  metrics: RumMetricReport[];
}

/** One metric's 75th percentile over the window, and how many samples it was read from. */
export interface FieldDataFigure {
  /** In the metric's unit (ms; CLS unitless); null when there is no sample. */
  p75: number | null;
  samples: number;
}

export interface FieldDataRow {
  page_type: RumPageType;
  locale: Locale;
  metrics: Record<RumMetric, FieldDataFigure>;
}

/** GET /backend/admin/rum: p75 per page type and locale over the last day. */
export interface FieldData {
  /** ISO start of the window (the start of the hour 23 hours before the current one) and its end (now). */
  from: string;
  to: string;
  /** The histogram's relative precision: a p75 read is within this fraction of the true one. */
  precision: number;
  rows: FieldDataRow[];
}
