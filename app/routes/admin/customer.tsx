import { Link } from "../../lib/link";
import type { Route } from "./+types/customer";
import { addCustomerNote, getCustomer } from "../../lib/api/console-customers";
import { browserApi } from "../../lib/api/browser";
import { StaffNotes } from "../../components/console/StaffNotes";
import { CustomerDataRights } from "../../components/console/CustomerDataRights";
import { DataTable } from "../../components/console/DataTable";
import { OrderStatusBadge } from "../../components/console/OrderBadges";
import { answer, intentOf, textOf, unknownIntent } from "../../lib/actions";
import { consoleLoad, consoleLocale, consoleMeta, notFoundResponse } from "../../lib/console";
import { consoleFormat } from "../../lib/console-format";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";
import { NationalAddressLine } from "../../components/NationalAddress";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.customers");

export async function loader(args: Route.LoaderArgs) {
  // An account's id, or a guest's `guest-<order number>`.
  if (!/^([1-9]\d{0,15}|guest-SQ-[A-Z0-9]{8})$/i.test(args.params.id)) throw notFoundResponse();
  return consoleLoad(args, async (api) => ({ customer: (await getCustomer(api, args.params.id)).data }));
}

/** Staff's note on the customer (StaffNotes submits it); the backend checks who may write it. */
export async function clientAction({ request, params }: Route.ClientActionArgs) {
  const locale = consoleLocale(params);
  const form = await request.formData();
  if (intentOf(form, ["note"] as const) !== "note") return unknownIntent(locale);
  return answer(locale, "note", () => addCustomerNote(browserApi(locale), params.id, textOf(form, "body")));
}

/** A customer: profile, saved addresses and orders. Support receives contact data already masked. */
export default function ConsoleCustomer({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const f = consoleFormat(locale);
  const { customer: c } = loaderData;
  const none = t("console.customers.none");
  return (
    <>
      <p>
        <Link to={to("/admin/customers")}>{t("console.customers.back")}</Link>
      </p>
      <h1>
        <bdi>{c.name}</bdi>
        {c.guest ? <span className="console-badge">{t("console.guests.badge")}</span> : null}
      </h1>
      {c.guest ? <p className="console-hint">{t("console.guests.guestNote")}</p> : null}
      {c.masked ? (
        <p className="console-hint" role="note">
          {t("console.customers.maskedNote")}
        </p>
      ) : null}

      <section className="console-panel" aria-labelledby="customer-profile">
        <h2 id="customer-profile">{t("console.customers.profile")}</h2>
        <dl className="console-facts">
          <div>
            <dt>{t("console.customers.email")}</dt>
            <dd>{c.email ? <bdi dir="ltr">{c.email}</bdi> : none}</dd>
          </div>
          <div>
            <dt>{t("console.customers.phone")}</dt>
            <dd>{c.phone ? <bdi dir="ltr">{c.phone}</bdi> : none}</dd>
          </div>
          <div>
            <dt>{t("console.customers.joined")}</dt>
            <dd>
              {f.day(c.created_at)}
              {c.guest ? null : (
                <> · {c.verified ? t("console.customers.verified") : t("console.customers.notVerified")}</>
              )}
            </dd>
          </div>
          <div>
            <dt>{t("console.customers.orders")}</dt>
            <dd>{f.number(c.orders_count)}</dd>
          </div>
          <div>
            <dt>{t("console.customers.totalSpent")}</dt>
            <dd>{f.money(c.total_spent)}</dd>
          </div>
        </dl>
      </section>

      {c.guest ? null : (
        <section className="console-panel" aria-labelledby="customer-addresses">
          <h2 id="customer-addresses">{t("console.customers.addresses")}</h2>
          {c.addresses.length === 0 ? (
            <p className="console-hint">{t("console.customers.noAddresses")}</p>
          ) : (
            <ul className="console-cards">
              {c.addresses.map((a) => (
                <li key={a.id} className="console-card">
                  <p className="console-card__title">
                    <bdi>{a.label ?? a.name}</bdi>
                    {a.is_default ? <span className="console-badge">{t("console.customers.default")}</span> : null}
                  </p>
                  <address>
                    <bdi>{a.name}</bdi>
                    <br />
                    <bdi>{[a.street, a.building].filter(Boolean).join(" ")}</bdi>
                    <br />
                    <bdi>{[a.district, a.city, a.postal_code].filter(Boolean).join(t("console.customers.comma"))}</bdi>
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
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <section className="console-panel" aria-labelledby="customer-orders">
        <h2 id="customer-orders">{t("console.customers.ordersTitle")}</h2>
        {c.orders.length === 0 ? (
          <p className="console-hint">{t("console.customers.noOrders")}</p>
        ) : (
          <div>
            <DataTable
              caption={t("console.customers.ordersTitle")}
              labelledBy="customer-orders"
              rows={c.orders}
              rowKey={(o) => o.number}
              empty={t("console.customers.noOrders")}
              columns={[
                {
                  label: t("console.customers.order"),
                  cell: (o) => (
                    <Link to={to(`/admin/orders/${o.number}`)} className="console-nowrap">
                      <bdi dir="ltr">{o.number}</bdi>
                    </Link>
                  ),
                },
                { label: t("console.customers.status"), cell: (o) => <OrderStatusBadge status={o.status} /> },
                { label: t("console.customers.items"), numeric: true, cell: (o) => f.number(o.items) },
                { label: t("console.customers.total"), numeric: true, cell: (o) => f.money(o.total, o.currency) },
                { label: t("console.customers.date"), cell: (o) => f.moment(o.created_at) },
              ]}
            />
            {c.orders_count > c.orders.length ? (
              <p className="console-table__count">
                {t("console.customers.ordersShown", {
                  shown: f.number(c.orders.length),
                  total: f.number(c.orders_count),
                })}
              </p>
            ) : null}
          </div>
        )}
      </section>

      {c.guest || c.masked || (!c.email && !c.phone) ? null : <CustomerDataRights id={String(c.id)} />}
      <StaffNotes notes={c.notes} />
    </>
  );
}
