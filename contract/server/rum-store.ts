import type { Locale } from "../locale";
import {
  RUM_METRICS,
  type FieldData,
  type FieldDataFigure,
  type FieldDataRow,
  type RumBeacon,
  type RumMetric,
  type RumPageType,
} from "../rum";

/**
 * The shop's own store of field data: Analytics Engine, where production's beacons
 * also go, cannot be queried locally (DESIGN "Known facts"), so each metric is also counted in a
 * D1 histogram, `rum_buckets` (migration 0017): per hour × metric × page type × locale × bucket, a
 * count. Written by the own server's POST /api/rum, read by the console's GET /backend/admin/rum.
 *
 * Buckets are log-spaced with ratio RATIO = 1.05: bucket b ≥ 1 holds the scaled values in
 * [RATIO^(b-1), RATIO^b) and is read back as its geometric middle RATIO^(b-0.5), which is within
 * √1.05 − 1 ≈ 2.5 % of any value in it (PRECISION). Bucket 0 holds scaled values under 1 and reads
 * as 0. Milliseconds are scaled by 1 (bucket 0: under 1 ms) and CLS by 1000 (bucket 0: under
 * 0.001). About 240 buckets reach 120 s, the largest value taken; a busy hour fills a few dozen.
 */
export const RATIO = 1.05;
export const PRECISION = Math.sqrt(RATIO) - 1;
const SCALE: Record<RumMetric, number> = { LCP: 1, INP: 1, CLS: 1000, TTFB: 1, FCP: 1 };
const LN_RATIO = Math.log(RATIO);

/** The bucket a metric's value is counted in. */
export function bucketOf(metric: RumMetric, value: number): number {
  const scaled = value * SCALE[metric];
  return scaled < 1 ? 0 : 1 + Math.floor(Math.log(scaled) / LN_RATIO);
}

/** The value a bucket is read back as, in the metric's own unit. */
export function valueOf(metric: RumMetric, bucket: number): number {
  return bucket === 0 ? 0 : RATIO ** (bucket - 0.5) / SCALE[metric];
}

/** The hour a moment falls in, as hours since the epoch. */
export const hourOf = (at: Date): number => Math.floor(at.getTime() / 3_600_000);

/**
 * Counts one beacon's metrics: one statement (a multi-row upsert), one round trip to D1. A
 * beacon holds at most RUM_MAX_METRICS metrics, 6 bound values each, under D1's 100.
 */
export async function recordBeacon(db: D1Database, beacon: RumBeacon, at = new Date()): Promise<void> {
  if (beacon.metrics.length === 0) return;
  const hour = hourOf(at);
  const binds: (string | number)[] = [];
  for (const m of beacon.metrics) binds.push(hour, m.name, beacon.page, beacon.locale, bucketOf(m.name, m.value));
  await db
    .prepare(
      `INSERT INTO rum_buckets (hour, metric, page_type, locale, bucket, count)
       VALUES ${beacon.metrics.map(() => "(?, ?, ?, ?, ?, 1)").join(", ")}
       ON CONFLICT (hour, metric, page_type, locale, bucket) DO UPDATE SET count = rum_buckets.count + 1`,
    )
    .bind(...binds)
    .run();
}

/** The 75th percentile of a histogram (nearest rank: the ceil(0.75 n)-th smallest sample). */
export function p75Of(metric: RumMetric, buckets: { bucket: number; count: number }[]): FieldDataFigure {
  const samples = buckets.reduce((n, b) => n + b.count, 0);
  if (samples === 0) return { p75: null, samples: 0 };
  const rank = Math.ceil(0.75 * samples);
  let seen = 0;
  for (const b of [...buckets].sort((x, y) => x.bucket - y.bucket)) {
    seen += b.count;
    if (seen >= rank) return { p75: valueOf(metric, b.bucket), samples };
  }
  return { p75: null, samples };
}

/** Hours kept: the console reads one day; a week leaves room to compare. The cron deletes older ones. */
export const RUM_KEEP_HOURS = 8 * 24;

/** Deletes the hours the console no longer reads (worker/backend/jobs.ts, every minute; cheap by primary key). */
export async function pruneBuckets(db: D1Database, now = new Date()): Promise<number> {
  const { meta } = await db
    .prepare("DELETE FROM rum_buckets WHERE hour < ?")
    .bind(hourOf(now) - RUM_KEEP_HOURS)
    .run();
  return meta.changes ?? 0;
}

/**
 * p75 of every metric per page type and locale over the last day: the current hour and the 23
 * before it, read from the buckets in one query.
 */
export async function fieldData(db: D1Database, now = new Date()): Promise<FieldData> {
  const first = hourOf(now) - 23;
  const { results } = await db
    .prepare(
      `SELECT page_type, locale, metric, bucket, SUM(count) AS count FROM rum_buckets
       WHERE hour >= ? GROUP BY page_type, locale, metric, bucket`,
    )
    .bind(first)
    .all<{ page_type: RumPageType; locale: Locale; metric: RumMetric; bucket: number; count: number }>();
  const groups = new Map<string, Map<RumMetric, { bucket: number; count: number }[]>>();
  for (const r of results) {
    const key = `${r.page_type}\u0000${r.locale}`;
    let metrics = groups.get(key);
    if (!metrics) groups.set(key, (metrics = new Map()));
    const list = metrics.get(r.metric) ?? [];
    list.push({ bucket: r.bucket, count: r.count });
    metrics.set(r.metric, list);
  }
  const rows: FieldDataRow[] = [...groups].map(([key, metrics]) => {
    const [page_type, locale] = key.split("\u0000") as [RumPageType, Locale];
    const figures = Object.fromEntries(RUM_METRICS.map((m) => [m, p75Of(m, metrics.get(m) ?? [])])) as Record<
      RumMetric,
      FieldDataFigure
    >;
    return { page_type, locale, metrics: figures };
  });
  rows.sort((a, b) => a.page_type.localeCompare(b.page_type) || a.locale.localeCompare(b.locale));
  return { from: new Date(first * 3_600_000).toISOString(), to: now.toISOString(), precision: PRECISION, rows };
}
