import type { BackendBindings } from "./backend";

/**
 * The Worker's bindings and variables, as declared in wrangler.toml: the reference backend's own
 * (worker/backend/env.ts), which this Worker hosts, and the edge's.
 */
export interface Env extends BackendBindings {
  ASSETS: Fetcher;
  /** Field data per network (POST /api/rum); optional: without it beacons are not limited. */
  RUM_LIMITER?: RateLimit;
  /** Workers Analytics Engine dataset souq_rum: every field-data point, for ad-hoc queries in production. */
  RUM?: AnalyticsEngineDataset;
  BACKEND_URL: string;
  /** Spec §7's separate lookup base URL for the browser's lookup GETs (absolute http(s)); empty: the backend's. */
  LOOKUP_URL?: string;
  /** Share of visits whose Core Web Vitals the storefront reports, 0 to 1 (default 0.1). */
  RUM_SAMPLE_RATE?: string;
}

export type HonoEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    secureHeadersNonce?: string;
    language: string;
    /** The newest D1 bookmark a backend answer gave during this request (middleware/bookmark.ts). */
    d1Bookmark?: string;
    /** The freshness of the catalogue answers this request read (backend-client.ts, page cache). */
    catalogueRead?: { oldest: number | null; lowStock: Map<string, number> };
    /** The catalogue version the page cache read before this request's render (worker/page-cache.ts). */
    pageVersion?: number | null;
    /** Settles this request's render for the requests waiting on it (worker/page-cache.ts). */
    pageRender?: () => void;
    /** Whether this request's render, if its route marks it, is kept in the colo's tier (worker/page-cache.ts). */
    pageShared?: boolean;
  };
};
