-- Field data: the Core Web Vitals of real visits, counted in log-spaced histogram
-- buckets per hour (hours since the epoch), metric, page type and locale, so the console reads
-- p75 over the last day from a few hundred rows (worker/lib/rum-store.ts: bucket b ≥ 1 holds
-- values in [1.05^(b-1), 1.05^b) of ms, or of CLS × 1000, read back within 2.5 %; bucket 0 holds
-- values under 1). No URL, no visitor: a page type and a locale. Analytics Engine gets the same
-- points in production; this table is what the shop itself can query. The cron keeps 8 days.
CREATE TABLE rum_buckets (
  hour INTEGER NOT NULL,
  metric TEXT NOT NULL CHECK (metric IN ('LCP', 'INP', 'CLS', 'TTFB', 'FCP')),
  page_type TEXT NOT NULL,
  locale TEXT NOT NULL CHECK (locale IN ('en', 'ar')),
  bucket INTEGER NOT NULL CHECK (bucket >= 0),
  count INTEGER NOT NULL CHECK (count > 0),
  PRIMARY KEY (hour, metric, page_type, locale, bucket)
) WITHOUT ROWID;
