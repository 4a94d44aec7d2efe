import { Form } from "react-router";
import { Link } from "../../lib/link";
import type { Route } from "./+types/promo-codes";
import { PROMO_FILTERS, type ConsolePromo } from "../../../contract/console-promos";
import { DataTable, type Column } from "../../components/console/DataTable";
import { PromoStateBadge } from "../../components/console/PromoStateBadge";
import { listParams } from "../../lib/api/console";
import { listPromoCodes } from "../../lib/api/console-promos";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { consoleFormat, promoDiscountLabel } from "../../lib/console-format";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.promoCodes");

export async function loader(args: Route.LoaderArgs) {
  const url = args.url;
  return consoleLoad(args, async (api) => {
    const list = await listPromoCodes(api, listParams(url, ["status", "search"]));
    return {
      rows: list.data,
      meta: list.meta,
      search: url.searchParams.get("search") ?? "",
      status: url.searchParams.get("status") ?? "",
    };
  });
}

/** Promo codes (managers and owners): every code with its usage so far, filtered and sorted on the server. */
export default function ConsolePromoCodes({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const f = consoleFormat(locale);
  const columns: Column<ConsolePromo>[] = [
    {
      label: t("console.promoCodes.code"),
      sort: "code",
      cell: (r) => (
        <Link to={to(`/admin/promo-codes/${r.id}`)} aria-label={`${t("console.promoCodes.edit")} ${r.code}`}>
          <bdi dir="ltr">{r.code}</bdi>
        </Link>
      ),
    },
    { label: t("console.promoCodes.discount"), cell: (r) => promoDiscountLabel(r, t, f) },
    { label: t("console.promoCodes.status"), cell: (r) => <PromoStateBadge state={r.state} /> },
    {
      label: t("console.promoCodes.used"),
      sort: "used_count",
      numeric: true,
      cell: (r) =>
        r.usage_limit === null
          ? f.number(r.used_count)
          : t("console.promoCodes.usedOf", { used: f.number(r.used_count), limit: f.number(r.usage_limit) }),
    },
    { label: t("console.promoCodes.redemptions"), numeric: true, cell: (r) => f.number(r.redemptions) },
    {
      label: t("console.promoCodes.discountGiven"),
      sort: "discount_total",
      numeric: true,
      cell: (r) => f.money(r.discount_total),
    },
    {
      label: t("console.promoCodes.ends"),
      sort: "ends_at",
      cell: (r) => (r.ends_at ? f.moment(r.ends_at) : t("console.promoCodes.noEnd")),
    },
  ];
  return (
    <>
      <div className="console-titlebar">
        <h1>{t("console.nav.promoCodes")}</h1>
        <Link to={to("/admin/promo-codes/new")} className="button">
          {t("console.promoCodes.new")}
        </Link>
      </div>
      <Form method="get" className="console-filters" role="search">
        <div className="field">
          <label htmlFor="promo-search">{t("console.promoCodes.search")}</label>
          <input id="promo-search" name="search" type="search" defaultValue={loaderData.search} dir="ltr" />
        </div>
        <div className="field">
          <label htmlFor="promo-status">{t("console.promoCodes.status")}</label>
          <select id="promo-status" name="status" defaultValue={loaderData.status}>
            <option value="">{t("console.filters.all")}</option>
            {PROMO_FILTERS.map((s) => (
              <option key={s} value={s}>
                {t(`console.promoCodes.filters.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t("console.filters.apply")}
        </button>
        {loaderData.search || loaderData.status ? (
          <Link to={to("/admin/promo-codes")} className="button button--ghost">
            {t("console.filters.clear")}
          </Link>
        ) : null}
      </Form>
      <DataTable
        caption={t("console.nav.promoCodes")}
        columns={columns}
        rows={loaderData.rows}
        meta={loaderData.meta}
        rowKey={(r) => r.id}
        empty={t("console.table.empty")}
      />
    </>
  );
}
