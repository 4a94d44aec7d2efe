import type { ReactNode } from "react";
import type { ConsoleOrder, OrderEvent } from "../../../contract/console-orders";
import type { Translate } from "../../lib/i18n";
import { formatMoney } from "../../lib/money";
import { formatDate } from "../../lib/orders";
import { useLocale, useT } from "../../lib/use-locale";
import { CARRIER_NAMES, type CarrierId } from "../../../contract/shipping";

function actorName(t: Translate, actor: string): string {
  if (actor === "system") return t("console.orders.actors.system");
  if (actor === "shopper") return t("console.orders.actors.shopper");
  return actor;
}

/** A refund made for a return, named in the reader's language. */
export function ForReturn({ id }: { id: string }) {
  const t = useT();
  return <span className="console-for-return">{t("console.orders.forReturn", { id })}</span>;
}

/** The reasons the shop itself records on a failed payment (services/payments.ts). */
const PAYMENT_FAILURES = new Set([
  "declined",
  "three_ds_failed",
  "cancelled",
  "expired",
  "already_paid",
  "out_of_stock",
  "amount_mismatch",
]);

/**
 * Why a payment failed: the shop's own codes in the reader's language; anything else is the
 * provider's words, shown as they came.
 */
function PaymentFailure({ reason }: { reason: string }) {
  const t = useT();
  if (PAYMENT_FAILURES.has(reason)) return <span>{t(`console.orders.paymentFailures.${reason}`)}</span>;
  return (
    <span>
      {t("console.orders.paymentFailures.other")}: <bdi>{reason}</bdi>
    </span>
  );
}

function EventDetail({ event, order }: { event: OrderEvent; order: ConsoleOrder }) {
  const locale = useLocale();
  const d = event.detail ?? {};
  const parts: ReactNode[] = [];
  if (typeof d.carrier === "string") {
    // A parcel's events name the shop's carrier by its id and the parcel by its waybill.
    const carrier = Object.hasOwn(CARRIER_NAMES, d.carrier) ? CARRIER_NAMES[d.carrier as CarrierId][locale] : d.carrier;
    parts.push(
      <span key="c">
        <bdi>{carrier}</bdi> · <bdi dir="ltr">{String(d.tracking_number ?? d.waybill ?? "")}</bdi>
      </span>,
    );
  }
  if (typeof d.amount === "number" && event.type !== "paid")
    parts.push(<bdi key="a">{formatMoney(d.amount, order.currency, locale)}</bdi>);
  if (typeof d.reason === "string" && d.reason)
    parts.push(
      event.type === "payment_failed" ? <PaymentFailure key="r" reason={d.reason} /> : <q key="r">{d.reason}</q>,
    );
  // A return's own steps name it; a refund made for one says which.
  if (typeof d.return_id === "string")
    parts.push(
      event.type.startsWith("return_") ? (
        <bdi key="rt" dir="ltr">
          {d.return_id}
        </bdi>
      ) : (
        <ForReturn key="rt" id={d.return_id} />
      ),
    );
  if (typeof d.message === "string" && d.message && event.type === "refund_failed")
    parts.push(<code key="m">{d.message}</code>);
  if (!parts.length) return null;
  return (
    <span className="console-timeline__detail">
      {parts.map((p, i) => (
        <span key={i}>
          {i > 0 ? " · " : null}
          {p}
        </span>
      ))}
    </span>
  );
}

/** The order's timeline: each event, when, what it carried, and who did it. */
export function OrderTimeline({ order }: { order: ConsoleOrder }) {
  const t = useT();
  const locale = useLocale();
  return (
    <section className="console-panel console-order__wide" aria-labelledby="order-timeline">
      <h2 id="order-timeline">{t("console.orders.timeline")}</h2>
      <ol className="console-timeline">
        {order.events.map((event) => (
          <li key={event.id}>
            <time dateTime={event.created_at}>{formatDate(event.created_at, locale, true)}</time>
            <span className="console-timeline__what">
              {t(`console.orders.events.${event.type}`) === `console.orders.events.${event.type}`
                ? event.type
                : t(`console.orders.events.${event.type}`)}
            </span>
            <EventDetail event={event} order={order} />
            <span className="console-hint">
              {t("console.orders.byActor", { actor: "" })}
              <bdi dir="ltr">{actorName(t, event.actor)}</bdi>
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
