import { Form } from "react-router";
import { Link } from "../../lib/link";
import type { Route } from "./+types/customers";
import { roleAtLeast } from "../../../contract/console";
import type { ConsoleCustomer } from "../../../contract/console-customers";
import { DataTable, type Column } from "../../components/console/DataTable";
import { listParams } from "../../lib/api/console";
import { listCustomers } from "../../lib/api/console-customers";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.customers");

export async function loader(args: Route.LoaderArgs) {
  const url = args.url;
  return consoleLoad(args, async (api, me) => {
    const list = await listCustomers(api, listParams(url, ["search"]));
    return {
      rows: list.data,
      meta: list.meta,
      search: url.searchParams.get("search") ?? "",
      // Only what the hint says: the backend masks and narrows the search whatever the page shows.
      masked: !roleAtLeast(me.role, "manager"),
    };
  });
}

/** Customers: shop accounts and guest buyers with their orders and spend; contact data masked for support. */
export default function ConsoleCustomers({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const f = consoleFormat(locale);
  const none = t("console.customers.none");
  const columns: Column<ConsoleCustomer>[] = [
    {
      label: t("console.customers.name"),
      sort: "name",
      cell: (r) => (
        <>
          <Link to={to(`/admin/customers/${r.id}`)}>
            <bdi>{r.name}</bdi>
          </Link>
          {r.guest ? <span className="console-badge">{t("console.guests.badge")}</span> : null}
        </>
      ),
    },
    {
      label: t("console.customers.email"),
      // Support's list does not sort by email: the backend will not order masked values.
      sort: loaderData.masked ? undefined : "email",
      cell: (r) => (r.email ? <bdi dir="ltr">{r.email}</bdi> : none),
    },
    { label: t("console.customers.phone"), cell: (r) => (r.phone ? <bdi dir="ltr">{r.phone}</bdi> : none) },
    {
      label: t("console.customers.orders"),
      sort: "orders_count",
      numeric: true,
      cell: (r) => f.number(r.orders_count),
    },
    {
      label: t("console.customers.totalSpent"),
      sort: "total_spent",
      numeric: true,
      cell: (r) => f.money(r.total_spent),
    },
    {
      label: t("console.customers.lastOrder"),
      sort: "last_order_at",
      cell: (r) => (r.last_order_at ? f.day(r.last_order_at) : none),
    },
    { label: t("console.customers.joined"), sort: "created", cell: (r) => f.day(r.created_at) },
  ];
  return (
    <>
      <h1>{t("console.nav.customers")}</h1>
      <Form method="get" className="console-filters" role="search">
        <div className="field">
          <label htmlFor="customer-search">{t("console.customers.search")}</label>
          <input
            id="customer-search"
            name="search"
            type="search"
            defaultValue={loaderData.search}
            dir="auto"
            aria-describedby="customer-search-hint"
          />
        </div>
        <button type="submit" className="button">
          {t("console.filters.apply")}
        </button>
        {loaderData.search ? (
          <Link to={to("/admin/customers")} className="button button--ghost">
            {t("console.filters.clear")}
          </Link>
        ) : null}
        <p id="customer-search-hint" className="console-hint console-filters__hint">
          {t(loaderData.masked ? "console.customers.searchHintMasked" : "console.customers.searchHint")}
        </p>
      </Form>
      <DataTable
        caption={t("console.nav.customers")}
        columns={columns}
        rows={loaderData.rows}
        meta={loaderData.meta}
        rowKey={(r) => r.id}
        empty={t("console.table.empty")}
      />
    </>
  );
}
