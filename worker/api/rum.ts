import { Hono } from "hono";
import * as v from "valibot";
import type { Locale } from "../../contract/locale";
import {
  RUM_CONNECTIONS,
  RUM_MAX_METRICS,
  RUM_MAX_VALUE,
  RUM_METRICS,
  RUM_NAVIGATION_TYPES,
  RUM_PAGE_TYPES,
  RUM_RATINGS,
  type RumBeacon,
} from "../../contract/rum";
import { rumBodyLimit } from "../../contract/server/body-limit";
import { clientIp } from "../../contract/server/network";
import { recordBeacon } from "../../contract/server/rum-store";
import { validate } from "../../contract/server/validate";
import type { HonoEnv } from "../env";

/**
 * POST /api/rum: the storefront's field-data beacon (app/client/rum.ts), one per page
 * view, sent when the page is hidden. Each metric goes to Analytics Engine (production's sink for
 * ad-hoc queries) and to the shop's own D1 histogram (contract/server/rum-store.ts), which the console
 * reads p75 from. Answers 204; a bad beacon 422 with field errors; a flood from one network 429.
 */
export const rumApi = new Hono<HonoEnv>();

const LOCALES = ["en", "ar"] as const satisfies readonly Locale[];

// Strict: a field the contract does not name (a URL, an id) is refused, not stored or dropped quietly.
const metric = v.pipe(
  v.strictObject({
    name: v.picklist(RUM_METRICS, "Unknown metric."),
    value: v.pipe(v.number("A number is required."), v.finite("A finite number is required."), v.minValue(0)),
    rating: v.picklist(RUM_RATINGS, "Unknown rating."),
  }),
  v.check((m) => m.value <= RUM_MAX_VALUE[m.name], "The value is out of range for this metric."),
);

const beacon = v.strictObject({
  page: v.picklist(RUM_PAGE_TYPES, "Unknown page type."),
  locale: v.picklist(LOCALES, "Unknown locale."),
  navigation: v.picklist(RUM_NAVIGATION_TYPES, "Unknown navigation type."),
  connection: v.optional(v.picklist(RUM_CONNECTIONS, "Unknown connection type.")),
  metrics: v.pipe(
    v.array(metric, "A list of metrics is required."),
    v.minLength(1, "At least one metric is required."),
    v.maxLength(RUM_MAX_METRICS, `At most ${RUM_MAX_METRICS} metrics.`),
  ),
}) satisfies v.GenericSchema<unknown, RumBeacon>;

rumApi.post(
  "/",
  rumBodyLimit(),
  async (c, next) => {
    // Per network, before the body is read; without the binding (an operator who left it out) no limit.
    // An IPv6 subscriber holds a whole /64: counted by address, each beacon could take a fresh one.
    const network = clientIp((name) => c.req.header(name));
    if (c.env.RUM_LIMITER && !(await c.env.RUM_LIMITER.limit({ key: `rum:ip:${network}` })).success)
      return c.json({ message: "Too many reports." }, 429);
    await next();
  },
  validate("json", () => beacon),
  async (c) => {
    const report = c.req.valid("json");
    for (const m of report.metrics)
      c.env.RUM?.writeDataPoint({
        blobs: [m.name, report.page, report.locale, m.rating],
        doubles: [m.value],
        indexes: [report.page],
      });
    await recordBeacon(c.env.DB, report);
    return c.body(null, 204);
  },
);
