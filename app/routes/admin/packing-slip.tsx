import { formatMoney } from "../../lib/money";
import { Link } from "../../lib/link";
import type { Route } from "./+types/packing-slip";
import { getPackingSlip } from "../../lib/api/console-orders";
import { consoleLoad, consoleMeta } from "../../lib/console";
import { formatDate } from "../../lib/orders";
import { countOf } from "../../lib/plural";
import { useLocale, useT } from "../../lib/use-locale";
import { Stylesheet } from "../../components/Stylesheet";
import invoiceCss from "../../styles/invoice.css?url";
import { lineKey } from "../../../contract/cart";
import { NationalAddressLine } from "../../components/NationalAddress";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.packingSlip.title");

export async function loader(args: Route.LoaderArgs) {
  return consoleLoad(args, async (api) => (await getPackingSlip(api, args.params.number)).data, { role: "manager" });
}

/**
 * An order's packing slip, printable on one A4 page: the order, where it goes and what goes in
 * the parcel, without prices. Labels in the page's language with the title in both, as the
 * invoice has it.
 */
export default function PackingSlipPage({ loaderData: slip, params }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const other = locale === "ar" ? "en" : "ar";
  const a = slip.address;
  return (
    <div className="tax-doc-page">
      <Stylesheet href={invoiceCss} />
      <article className="tax-doc packing-slip" aria-labelledby="packing-slip-title" data-packing-slip>
        <h1 id="packing-slip-title" className="tax-doc__title">
          {t("console.packingSlip.title")}
          <span className="tax-doc__title-other" lang={other}>
            {t("console.packingSlip.otherTitle")}
          </span>
        </h1>
        <dl className="tax-doc__facts">
          <div>
            <dt>{t("console.packingSlip.order")}</dt>
            <dd>
              <bdi dir="ltr">{slip.order_number}</bdi>
            </dd>
          </div>
          <div>
            <dt>{t("console.packingSlip.date")}</dt>
            <dd>
              <time dateTime={slip.created_at}>{formatDate(slip.created_at, locale, true)}</time>
            </dd>
          </div>
          <div>
            <dt>{t("console.packingSlip.shipTo")}</dt>
            <dd>
              <address className="packing-slip__address">
                <bdi>{a.name}</bdi>
                <br />
                <bdi>{[a.street, a.building].filter(Boolean).join(" ")}</bdi>
                <br />
                <bdi>{[a.district, a.city, a.postal_code].filter(Boolean).join(locale === "ar" ? "، " : ", ")}</bdi>
                <NationalAddressLine address={a} />
                <br />
                <bdi dir="ltr">{a.phone}</bdi>
                {a.notes ? (
                  <>
                    <br />
                    <bdi>{a.notes}</bdi>
                  </>
                ) : null}
              </address>
            </dd>
          </div>
        </dl>
        <table className="tax-doc__lines">
          <caption className="visually-hidden">{t("console.packingSlip.items")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("console.packingSlip.item")}</th>
              <th scope="col">{t("console.packingSlip.sku")}</th>
              <th scope="col">{t("console.packingSlip.quantity")}</th>
              <th scope="col" className="packing-slip__check">
                {t("console.packingSlip.packed")}
              </th>
            </tr>
          </thead>
          <tbody>
            {slip.items.map((item) => (
              <tr key={lineKey(item)}>
                <th scope="row">
                  <bdi>{item.name}</bdi>
                  {item.refunded > 0 ? (
                    <span className="packing-slip__refunded">
                      {" "}
                      {countOf(t, locale, "console.packingSlip.refunded", item.refunded)}
                    </span>
                  ) : null}
                </th>
                <td>{item.sku ? <bdi dir="ltr">{item.sku}</bdi> : "—"}</td>
                <td>{item.quantity}</td>
                <td className="packing-slip__check" aria-hidden="true">
                  ☐
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="packing-slip__units">{countOf(t, locale, "console.packingSlip.units", slip.total_units)}</p>
        {slip.cash_to_collect ? (
          // The courier may read either language: the amount is said in both.
          <p className="packing-slip__collect" data-cash-to-collect>
            <strong>{t("console.packingSlip.collect")}</strong>
            <span lang={locale === "ar" ? "en" : "ar"} dir={locale === "ar" ? "ltr" : "rtl"}>
              {t("console.packingSlip.collectOther")}
            </span>
            <bdi className="packing-slip__amount">{formatMoney(slip.cash_to_collect, slip.currency, locale)}</bdi>
          </p>
        ) : null}
        <p className="tax-doc__actions">
          <button type="button" className="button button--primary" onClick={() => window.print()}>
            {t("invoice.print")}
          </button>
          <Link to={`/${params.locale}/admin/orders/${params.number}`}>{t("invoice.backToOrder")}</Link>
        </p>
      </article>
    </div>
  );
}
