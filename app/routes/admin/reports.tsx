import { useState } from "react";
import { Form, useNavigate } from "react-router";
import type { Route } from "./+types/reports";
import {
  presetDays,
  REPORT_PRESETS,
  shopDayStart,
  type ReportPreset,
  type ReportSalesRow,
} from "../../../contract/console-reports";
import { RECOVERY_DAYS } from "../../../contract/cart-reminders";
import { toast } from "../../client/toast";
import { DataTable } from "../../components/console/DataTable";
import { browserApi } from "../../lib/api/browser";
import { handleBrowserError } from "../../lib/browser-errors";
import { ApiError } from "../../lib/api/errors";
import { exportCustomers, exportOrders, getReport } from "../../lib/api/console-reports";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { saveFile, useBackendBase } from "../../lib/console-files";
import { consoleFormat } from "../../lib/console-format";
import { countOf } from "../../lib/plural";
import { useLocale, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.reports");

const isPreset = (value: string | null): value is ReportPreset =>
  (REPORT_PRESETS as readonly (string | null)[]).includes(value);

/** The period the address asks for: a preset (this month by default), or custom days as typed. */
function periodOf(url: URL, now: Date): { preset: ReportPreset; from: string; to: string } {
  const asked = url.searchParams.get("period");
  const preset = isPreset(asked) ? asked : "this_month";
  if (preset !== "custom") return { preset, ...presetDays(preset, now) };
  return { preset, from: url.searchParams.get("from") ?? "", to: url.searchParams.get("to") ?? "" };
}

export async function loader(args: Route.LoaderArgs) {
  const period = periodOf(args.url, new Date());
  return consoleLoad(
    args,
    async (api) => {
      try {
        return { period, report: (await getReport(api, period)).data, errors: [] as string[] };
      } catch (error) {
        // Days the backend refuses (the wrong way round, longer than a year) are said above the form.
        if (!(error instanceof ApiError) || error.status !== 422) throw error;
        return { period, report: null, errors: Object.values(error.errors).flat() };
      }
    },
    // Support sees no revenue: for them the page does not exist, as the API answers.
    { role: "manager" },
  );
}

/** Reports: a period's sales, refunds, VAT return figures and best sellers, and the CSV exports. */
export default function ConsoleReports({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const backend = useBackendBase();
  const f = consoleFormat(locale);
  const { period, report: r, errors } = loaderData;
  const [preset, setPreset] = useState<ReportPreset>(period.preset);
  const [days, setDays] = useState({ from: period.from, to: period.to });

  const choose = (value: ReportPreset) => {
    setPreset(value);
    if (value !== "custom") setDays(presetDays(value, new Date()));
  };
  const type = (field: "from" | "to", value: string) => {
    setPreset("custom");
    setDays((d) => ({ ...d, [field]: value }));
  };

  const download = async (what: "orders" | "customers") => {
    const id = toast.loading(t("console.reports.exporting"));
    try {
      const api = browserApi(locale);
      const file =
        what === "orders"
          ? await exportOrders(api, backend, { from: period.from, to: period.to })
          : await exportCustomers(api, backend);
      saveFile(
        file,
        what === "orders"
          ? `orders-${period.from}-${period.to}.csv`
          : `customers-${new Date().toISOString().slice(0, 10)}.csv`,
      );
      toast.success(t("console.reports.exported"), { id });
    } catch (error) {
      toast.dismiss(id);
      handleBrowserError(error, locale, (path) => void navigate(path));
    }
  };

  const money = (halalas: number) => f.money(halalas, r?.currency);
  const salesTable = (rows: ReportSalesRow[], caption: string, labelledBy: string) => (
    <DataTable
      caption={caption}
      labelledBy={labelledBy}
      rows={rows}
      rowKey={(row) => row.id ?? "none"}
      empty={t("console.reports.noSales")}
      columns={[
        { label: t("console.reports.name"), cell: (row) => <bdi>{row.name ?? t("console.reports.noCategory")}</bdi> },
        { label: t("console.reports.units"), numeric: true, cell: (row) => f.number(row.units) },
        { label: t("console.reports.netSales"), numeric: true, cell: (row) => money(row.net) },
      ]}
    />
  );

  return (
    <>
      <h1>{t("console.nav.reports")}</h1>
      <Form method="get" className="console-filters" aria-label={t("console.reports.periodLabel")}>
        <div className="field">
          <label htmlFor="report-period">{t("console.reports.period")}</label>
          <select
            id="report-period"
            name="period"
            value={preset}
            onChange={(e) => choose(e.currentTarget.value as ReportPreset)}
          >
            {REPORT_PRESETS.map((p) => (
              <option key={p} value={p}>
                {t(`console.reports.presets.${p}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="report-from">{t("console.reports.from")}</label>
          <input
            id="report-from"
            name="from"
            type="date"
            value={days.from}
            onChange={(e) => type("from", e.currentTarget.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="report-to">{t("console.reports.to")}</label>
          <input
            id="report-to"
            name="to"
            type="date"
            value={days.to}
            onChange={(e) => type("to", e.currentTarget.value)}
          />
        </div>
        <button type="submit" className="button">
          {t("console.reports.show")}
        </button>
      </Form>
      {errors.length ? (
        <div className="console-error" role="alert">
          {errors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}

      {r ? (
        <>
          <p className="console-hint" id="report-range">
            {t("console.reports.range", {
              from: f.day(r.starts_at),
              to: f.day(shopDayStart(r.to).toISOString()),
            })}
          </p>
          <div className="console-actions">
            <button type="button" className="button button--primary" onClick={() => void download("orders")}>
              {t("console.reports.exportOrders")}
            </button>
            <button type="button" className="button" onClick={() => void download("customers")}>
              {t("console.reports.exportCustomers")}
            </button>
          </div>
          <p className="console-hint">{t("console.reports.exportNote")}</p>

          <section className="console-panel" aria-labelledby="report-sales">
            <h2 id="report-sales">{t("console.reports.sales")}</h2>
            <ul className="console-stats console-stats--money" aria-describedby="report-sales-note">
              {(
                [
                  ["orders", f.number(r.sales.orders)],
                  ["gross", money(r.sales.gross)],
                  ["discounts", money(r.sales.discounts)],
                  ["shipping", money(r.sales.shipping)],
                  ["total", money(r.sales.total)],
                  ["refunds", money(r.refunds.amount)],
                  ["net", money(r.net)],
                ] as const
              ).map(([key, value]) => (
                <li key={key} className="console-stat" data-stat={key}>
                  <div className="console-stat__label">{t(`console.reports.figures.${key}`)}</div>
                  <div className="console-stat__value">{value}</div>
                </li>
              ))}
            </ul>
            <p id="report-sales-note" className="console-hint">
              {t("console.reports.salesNote", {
                refunds: countOf(t, locale, "console.reports.refundCount", r.refunds.count),
              })}
            </p>
          </section>

          <section className="console-panel" aria-labelledby="report-vat">
            <h2 id="report-vat">{t("console.reports.vat")}</h2>
            <div className="console-table">
              {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable) */}
              <div className="console-table__scroll" tabIndex={0} role="region" aria-labelledby="report-vat">
                <table data-testid="vat-table">
                  <caption className="visually-hidden">{t("console.reports.vat")}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t("console.reports.document")}</th>
                      <th scope="col" className="is-numeric">
                        {t("console.reports.count")}
                      </th>
                      <th scope="col" className="is-numeric">
                        {t("console.reports.taxable")}
                      </th>
                      <th scope="col" className="is-numeric">
                        {t("console.reports.vatAmount")}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {(
                      [
                        ["invoices", r.vat.invoices, 1],
                        ["creditNotes", r.vat.credit_notes, -1],
                      ] as const
                    ).map(([key, docs, sign]) => (
                      <tr key={key}>
                        <th scope="row">{t(`console.reports.${key}`)}</th>
                        <td className="is-numeric">{f.number(docs.count)}</td>
                        <td className="is-numeric">{money(sign * docs.taxable || 0)}</td>
                        <td className="is-numeric">{money(sign * docs.vat || 0)}</td>
                      </tr>
                    ))}
                  </tbody>
                  <tfoot>
                    <tr data-row="vat-return">
                      <th scope="row">{t("console.reports.vatReturn")}</th>
                      <td />
                      <td className="is-numeric">
                        <strong>{money(r.vat.taxable)}</strong>
                      </td>
                      <td className="is-numeric">
                        <strong>{money(r.vat.vat)}</strong>
                      </td>
                    </tr>
                  </tfoot>
                </table>
              </div>
            </div>
            <p className="console-hint">{t("console.reports.vatNote")}</p>
          </section>

          <div className="console-columns">
            <section className="console-panel" aria-labelledby="report-products">
              <h2 id="report-products">{t("console.reports.byProduct")}</h2>
              {r.by_product.count > r.by_product.rows.length ? (
                <p className="console-hint">
                  {t("console.reports.topOf", {
                    shown: f.number(r.by_product.rows.length),
                    all: countOf(t, locale, "console.reports.productCount", r.by_product.count),
                  })}
                </p>
              ) : null}
              {salesTable(r.by_product.rows, t("console.reports.byProduct"), "report-products")}
            </section>
            <section className="console-panel" aria-labelledby="report-categories">
              <h2 id="report-categories">{t("console.reports.byCategory")}</h2>
              {salesTable(r.by_category.rows, t("console.reports.byCategory"), "report-categories")}
            </section>
          </div>

          <section className="console-panel" aria-labelledby="report-cart-reminders">
            <h2 id="report-cart-reminders">{t("cartReminders.report.title")}</h2>
            <ul className="console-stats console-stats--money" aria-describedby="report-cart-reminders-note">
              {(
                [
                  ["sent", f.number(r.cart_reminders.sent)],
                  ["recovered", f.number(r.cart_reminders.recovered)],
                  ["revenue", money(r.cart_reminders.revenue)],
                ] as const
              ).map(([key, value]) => (
                <li key={key} className="console-stat" data-stat={`cart-reminders-${key}`}>
                  <div className="console-stat__label">{t(`cartReminders.report.${key}`)}</div>
                  <div className="console-stat__value">{value}</div>
                </li>
              ))}
            </ul>
            <p id="report-cart-reminders-note" className="console-hint">
              {t("cartReminders.report.note", { days: RECOVERY_DAYS })}
            </p>
          </section>
        </>
      ) : null}
    </>
  );
}
