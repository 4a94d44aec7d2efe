import { useState } from "react";
import { Form } from "react-router";
import { Link } from "../../lib/link";
import type { Route } from "./+types/orders";
import { roleAtLeast } from "../../../contract/console";
import {
  CONSOLE_ORDER_STATUSES,
  CONSOLE_PAYMENT_STATUSES,
  type ConsoleOrderRow,
} from "../../../contract/console-orders";
import { DataTable, type Column } from "../../components/console/DataTable";
import { OrderStatusBadge, PaymentStatusBadge } from "../../components/console/OrderBadges";
import { OrdersShippingBar } from "../../components/console/OrdersShipping";
import { useAutoRefresh } from "../../components/console/useAutoRefresh";
import { listParams } from "../../lib/api/console";
import { ApiError } from "../../lib/api/errors";
import { listConsoleOrders, ORDER_FILTERS } from "../../lib/api/console-orders";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { formatMoney } from "../../lib/money";
import { formatDate } from "../../lib/orders";
import { shopIsoDay } from "../../../contract/shop-time";
import { useLocale, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.orders");

export async function loader(args: Route.LoaderArgs) {
  const url = args.url;
  const filters = Object.fromEntries(ORDER_FILTERS.map((key) => [key, url.searchParams.get(key) ?? ""])) as Record<
    (typeof ORDER_FILTERS)[number],
    string
  >;
  return consoleLoad(args, async (api, me) => {
    // Only what the hint and the sortable columns say: the backend narrows support's search and
    // sorts whatever the page shows.
    const masked = !roleAtLeast(me.role, "manager");
    try {
      const list = await listConsoleOrders(api, listParams(url, ORDER_FILTERS));
      return { rows: list.data, meta: list.meta, filters, masked, today: shopIsoDay(), errors: [] as string[] };
    } catch (error) {
      // A filter the backend refuses (a date range the wrong way round) is said above an empty table.
      if (!(error instanceof ApiError) || error.status !== 422) throw error;
      const meta = { page: 1, per_page: 25, total: 0, last_page: 1, sort: "created_at", dir: "desc" as const };
      return { rows: [], meta, filters, masked, today: shopIsoDay(), errors: Object.values(error.errors).flat() };
    }
  });
}

/** Orders: filter by state, payment, dates, or find one by number, email or phone; newest first. */
export default function ConsoleOrders({ loaderData }: Route.ComponentProps) {
  // New orders appear while the list is open (every minute, and on coming back to the tab).
  useAutoRefresh();
  const t = useT();
  const locale = useLocale();
  const { filters } = loaderData;
  // Orders ticked for the shipping actions (managers and owners), kept only while they are listed.
  const [ticked, setTicked] = useState<string[]>([]);
  const selected = ticked.filter((n) => loaderData.rows.some((r) => r.number === n));
  const allTicked = loaderData.rows.length > 0 && selected.length === loaderData.rows.length;
  const tick = (number: string, on: boolean) =>
    setTicked((list) => (on ? [...list.filter((n) => n !== number), number] : list.filter((n) => n !== number)));
  const selectColumn: Column<ConsoleOrderRow> = {
    label: t("console.bulkShip.select"),
    header: (
      <input
        type="checkbox"
        aria-label={t("console.bulkShip.selectAll")}
        checked={allTicked}
        onChange={(e) => setTicked(e.target.checked ? loaderData.rows.map((r) => r.number) : [])}
      />
    ),
    cell: (r) => (
      <input
        type="checkbox"
        aria-label={t("console.bulkShip.selectOrder", { number: r.number })}
        checked={selected.includes(r.number)}
        onChange={(e) => tick(r.number, e.target.checked)}
      />
    ),
  };
  const columns: Column<ConsoleOrderRow>[] = [
    ...(loaderData.masked ? [] : [selectColumn]),
    {
      label: t("console.orders.number"),
      sort: "number",
      cell: (r) => (
        <Link to={`/${locale}/admin/orders/${r.number}`} className="console-orders__number">
          <bdi dir="ltr">{r.number}</bdi>
        </Link>
      ),
    },
    { label: t("console.orders.date"), sort: "created_at", cell: (r) => formatDate(r.created_at, locale, true) },
    {
      label: t("console.orders.customer"),
      sort: loaderData.masked ? undefined : "email",
      cell: (r) => (
        <span className="console-orders__customer">
          <bdi>{r.customer}</bdi>
          <bdi dir="ltr" className="console-hint">
            {r.email}
          </bdi>
        </span>
      ),
    },
    {
      label: t("console.orders.total"),
      sort: "total",
      numeric: true,
      cell: (r) => <bdi>{formatMoney(r.total, r.currency, locale)}</bdi>,
    },
    { label: t("console.fields.status"), sort: "status", cell: (r) => <OrderStatusBadge status={r.status} /> },
    { label: t("console.fields.payment_status"), cell: (r) => <PaymentStatusBadge status={r.payment_status} /> },
  ];
  const filtered = ORDER_FILTERS.some((key) => filters[key]);
  const [filtersOpen, setFiltersOpen] = useState(filtered);
  return (
    <div className="console-orders-page">
      <h1>{t("console.nav.orders")}</h1>
      {/* On a phone the filters fold behind this button (unless some are set), so the list comes first. */}
      <button
        type="button"
        className="button button--ghost console-filters__toggle"
        aria-expanded={filtersOpen}
        aria-controls="orders-filters"
        onClick={() => setFiltersOpen((open) => !open)}
      >
        {t("console.orders.filters")}
      </button>
      <Form
        method="get"
        id="orders-filters"
        className="console-filters"
        data-folded={filtersOpen ? undefined : "true"}
        role="search"
        aria-label={t("console.orders.filters")}
      >
        <div className="field">
          <label htmlFor="orders-search">{t("console.orders.search")}</label>
          <input
            id="orders-search"
            name="search"
            type="search"
            defaultValue={filters.search}
            dir="auto"
            aria-describedby="orders-search-hint"
          />
        </div>
        <div className="field">
          <label htmlFor="orders-status">{t("console.fields.status")}</label>
          <select id="orders-status" name="status" defaultValue={filters.status}>
            <option value="">{t("console.filters.all")}</option>
            {CONSOLE_ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`orders.statuses.${status}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="orders-payment">{t("console.fields.payment_status")}</label>
          <select id="orders-payment" name="payment_status" defaultValue={filters.payment_status}>
            <option value="">{t("console.filters.all")}</option>
            {CONSOLE_PAYMENT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`orders.paymentStatuses.${status}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="orders-returns">{t("console.orders.returns.title")}</label>
          <select id="orders-returns" name="returns" defaultValue={filters.returns}>
            <option value="">{t("console.filters.all")}</option>
            <option value="open">{t("console.orders.returns.openFilter")}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="orders-cod">{t("console.orders.codFilter")}</label>
          <select id="orders-cod" name="cod" defaultValue={filters.cod}>
            <option value="">{t("console.filters.all")}</option>
            <option value="unconfirmed">{t("console.orders.codUnconfirmed")}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="orders-from">{t("console.fields.date_from")}</label>
          <input id="orders-from" name="date_from" type="date" defaultValue={filters.date_from} />
        </div>
        <div className="field">
          <label htmlFor="orders-to">{t("console.fields.date_to")}</label>
          <input id="orders-to" name="date_to" type="date" defaultValue={filters.date_to} />
        </div>
        <button type="submit" className="button">
          {t("console.filters.apply")}
        </button>
        {filtered ? (
          <Link to={`/${locale}/admin/orders`} className="button button--ghost">
            {t("console.filters.clear")}
          </Link>
        ) : null}
        <p id="orders-search-hint" className="console-hint console-filters__hint">
          {t(loaderData.masked ? "console.orders.searchHintMasked" : "console.orders.searchHint")}
        </p>
      </Form>
      {loaderData.errors.length ? (
        <div className="console-error" role="alert">
          {loaderData.errors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
      {loaderData.masked ? null : (
        <OrdersShippingBar selected={selected} today={loaderData.today} onClear={() => setTicked([])} />
      )}
      <DataTable
        caption={t("console.nav.orders")}
        columns={columns}
        rows={loaderData.rows}
        meta={loaderData.meta}
        rowKey={(r) => r.number}
        empty={t("console.orders.empty")}
      />
    </div>
  );
}
