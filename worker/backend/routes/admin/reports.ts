import { Hono } from "hono";
import { REPORT_MAX_DAYS, reportPeriodSchema } from "../../../../contract/console-reports";
import type { BackendEnv } from "../../env";
import { ok } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import { auditExport, customersCsv, ordersCsv, salesReport } from "../../services/console/reports";
import { currentStaff, staffOnly } from "../../services/console/staff";
import { msg } from "../../messages";

/**
 * /admin/reports: the period's sales, refunds and VAT, and the orders and customers CSV exports.
 * Owners and managers only: support sees neither revenue nor unmasked contact data, and a bulk
 * export is both. Each export is audited before its first byte, and streamed page by page.
 */
export const reportsRoutes = new Hono<BackendEnv>();

reportsRoutes.use(staffOnly("manager"));

const period = validate("query", (_m, lang) =>
  reportPeriodSchema({
    required: say(lang, msg("console.reports.chooseDay")),
    day: say(lang, msg("console.reports.dayShape")),
    period: say(lang, msg("console.reports.endBeforeStart")),
    tooLong: say(lang, msg("console.reports.tooLong"), { days: REPORT_MAX_DAYS }),
  }),
);

reportsRoutes.get("/", period, async (c) => ok(c, await salesReport(c.env.DB, c.req.valid("query"), c.get("lang"))));

const csvHeaders = (name: string) => ({
  "content-type": "text/csv; charset=utf-8",
  "content-disposition": `attachment; filename="${name}.csv"`,
  "cache-control": "no-store",
});

reportsRoutes.get("/orders.csv", period, async (c) => {
  const p = c.req.valid("query");
  await auditExport(c.env.DB, currentStaff(c), "orders", p);
  return c.body(ordersCsv(c.env.DB, p), 200, csvHeaders(`orders-${p.from}-${p.to}`));
});

reportsRoutes.get("/customers.csv", async (c) => {
  await auditExport(c.env.DB, currentStaff(c), "customers", null);
  const day = new Date().toISOString().slice(0, 10);
  return c.body(customersCsv(c.env.DB), 200, csvHeaders(`customers-${day}`));
});
