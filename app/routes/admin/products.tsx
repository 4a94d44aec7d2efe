import { useState } from "react";
import { Form, useNavigate } from "react-router";
import { Link } from "../../lib/link";
import type { Route } from "./+types/products";
import { roleAtLeast } from "../../../contract/console";
import { shopIsoDay } from "../../../contract/shop-time";
import { STOCK_STATES, type ConsoleProductRow } from "../../../contract/console-catalogue-shapes";
import { toast } from "../../client/toast";
import { BulkEditPanel } from "../../components/console/BulkEditPanel";
import { DataTable, type Column } from "../../components/console/DataTable";
import { ProductThumb, StockBadge } from "../../components/console/ProductParts";
import { browserApi } from "../../lib/api/browser";
import { handleBrowserError } from "../../lib/browser-errors";
import { listParams } from "../../lib/api/console";
import { exportProducts, getProductChoices, listProducts, PRODUCT_FILTERS } from "../../lib/api/console-catalogue";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { saveFile, useBackendBase } from "../../lib/console-files";
import { formatMoney } from "../../lib/money";
import { useLocale, useT } from "../../lib/use-locale";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.products");

export async function loader(args: Route.LoaderArgs) {
  const url = args.url;
  return consoleLoad(args, async (api, me) => {
    const [list, choices] = await Promise.all([
      listProducts(api, listParams(url, PRODUCT_FILTERS)),
      getProductChoices(api),
    ]);
    const filters = Object.fromEntries(PRODUCT_FILTERS.map((k) => [k, url.searchParams.get(k) ?? ""]));
    return {
      rows: list.data,
      meta: list.meta,
      choices: choices.data,
      filters,
      canWrite: roleAtLeast(me.role, "manager"),
    };
  });
}

/** Products: the catalogue as a table, filtered and sorted on the server, with the CSV actions. */
export default function ConsoleProducts({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const backend = useBackendBase();
  const { rows, meta, choices, filters, canWrite } = loaderData;
  const name = (r: { name_en: string; name_ar: string }) => (locale === "ar" ? r.name_ar : r.name_en);
  const base = `/${locale}/admin/products`;
  // The products chosen for a bulk edit, kept across pages of the list until applied or cleared.
  const [selected, setSelected] = useState<number[]>([]);
  const toggle = (id: number, on: boolean) =>
    setSelected((list) => (on ? [...new Set([...list, id])] : list.filter((x) => x !== id)));

  const download = async () => {
    const id = toast.loading(t("console.products.exporting"));
    try {
      const file = await exportProducts(browserApi(locale), backend);
      saveFile(file, `products-${shopIsoDay()}.csv`);
      toast.success(t("console.products.exported"), { id });
    } catch (error) {
      toast.dismiss(id);
      handleBrowserError(error, locale, (path) => void navigate(path));
    }
  };

  const select: Column<ConsoleProductRow> = {
    label: t("console.bulkEdit.column"),
    cell: (r) => (
      <input
        type="checkbox"
        className="console-select"
        checked={selected.includes(r.id)}
        onChange={(e) => toggle(r.id, e.target.checked)}
        aria-label={t("console.bulkEdit.select", { name: name(r) })}
      />
    ),
  };
  const columns: Column<ConsoleProductRow>[] = [
    ...(canWrite ? [select] : []),
    { label: t("console.products.image"), cell: (r) => <ProductThumb src={r.image} /> },
    {
      label: t("console.products.name"),
      sort: "name",
      cell: (r) => (
        <Link to={`${base}/${r.id}`} className="console-product-name">
          <bdi>{name(r)}</bdi>
        </Link>
      ),
    },
    { label: t("console.fields.sku"), sort: "sku", cell: (r) => <bdi dir="ltr">{r.sku}</bdi> },
    {
      label: t("console.fields.price"),
      sort: "price",
      numeric: true,
      cell: (r) => formatMoney(r.price, "SAR", locale),
    },
    { label: t("console.fields.stock"), sort: "stock", numeric: true, cell: (r) => <StockBadge row={r} /> },
    {
      label: t("console.fields.active"),
      cell: (r) =>
        r.active ? (
          <span className="console-badge console-badge--ok">{t("console.products.activeBadge")}</span>
        ) : (
          <span className="console-badge console-badge--danger">{t("console.products.hiddenBadge")}</span>
        ),
    },
  ];

  return (
    <>
      <h1>{t("console.nav.products")}</h1>
      <div className="console-actions">
        {canWrite ? (
          <>
            <Link className="button button--primary" to={`${base}/new`}>
              {t("console.products.new")}
            </Link>
            <Link className="button" to={`${base}/import`}>
              {t("console.products.import")}
            </Link>
          </>
        ) : null}
        <button type="button" className="button" onClick={() => void download()}>
          {t("console.products.export")}
        </button>
      </div>
      <Form method="get" className="console-filters" role="search" aria-label={t("console.products.filters")}>
        <div className="field">
          <label htmlFor="p-search">{t("console.products.search")}</label>
          <input id="p-search" name="search" type="search" defaultValue={filters.search} dir="auto" />
        </div>
        <div className="field">
          <label htmlFor="p-category">{t("console.fields.category_id")}</label>
          <select id="p-category" name="category_id" defaultValue={filters.category_id}>
            <option value="">{t("console.filters.all")}</option>
            {choices.categories.map((c) => (
              <option key={c.id} value={c.id}>
                {locale === "ar" ? c.name_ar : c.name_en}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="p-brand">{t("console.fields.brand_id")}</label>
          <select id="p-brand" name="brand_id" defaultValue={filters.brand_id}>
            <option value="">{t("console.filters.all")}</option>
            {choices.brands.map((b) => (
              <option key={b.id} value={b.id}>
                {locale === "ar" ? b.name_ar : b.name_en}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="p-active">{t("console.fields.active")}</label>
          <select id="p-active" name="active" defaultValue={filters.active}>
            <option value="">{t("console.filters.all")}</option>
            <option value="1">{t("console.products.activeBadge")}</option>
            <option value="0">{t("console.products.hiddenBadge")}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="p-stock">{t("console.fields.stock")}</label>
          <select id="p-stock" name="stock" defaultValue={filters.stock}>
            <option value="">{t("console.filters.all")}</option>
            {STOCK_STATES.map((s) => (
              <option key={s} value={s}>
                {t(`console.products.stockState.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button">
          {t("console.filters.apply")}
        </button>
        <Link to={base} className="button button--ghost">
          {t("console.filters.clear")}
        </Link>
      </Form>
      {canWrite ? (
        <BulkEditPanel
          ids={selected}
          onSelectPage={() => setSelected((list) => [...new Set([...list, ...rows.map((r) => r.id)])])}
          onClear={() => setSelected([])}
        />
      ) : null}
      <DataTable
        caption={t("console.nav.products")}
        columns={columns}
        rows={rows}
        meta={meta}
        rowKey={(r) => r.id}
        empty={t("console.table.empty")}
      />
    </>
  );
}
