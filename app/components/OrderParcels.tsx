import { lazy, Suspense, useId } from "react";
import { CARRIER_NAMES, type CarrierId, type OrderShipment } from "../../contract/shipping";
import { shopArrivalDay } from "../../contract/shop-time";
import { formatDate, type Order } from "../lib/orders";
import { useLocale, useT } from "../lib/use-locale";

/** Only a missed delivery needs the form (and its API call): its chunk loads then, not with every order page. */
const NewAttempt = lazy(() => import("./ParcelNewAttempt").then((m) => ({ default: m.ParcelNewAttempt })));

/**
 * The order's parcels as the carriers report them: each parcel's steps in the reader's language,
 * its waybill and the carrier's tracking page, what is in it when the order left in several, and,
 * after a missed delivery, the days the owner may choose for the courier to come again.
 */
export function OrderParcels({ order }: { order: Order }) {
  const t = useT();
  const shipments = order.shipments ?? [];
  if (!shipments.length) return null;
  const deliveries = shipments.filter((s) => s.kind === "delivery").length;
  return (
    <section className="order-details__box parcels" aria-labelledby="parcels-title">
      <h3 id="parcels-title">{t("orders.parcels.title")}</h3>
      <ol className="parcels__list">
        {shipments.map((parcel) => (
          <Parcel key={parcel.seq} order={order} parcel={parcel} deliveries={deliveries} />
        ))}
      </ol>
    </section>
  );
}

function Parcel({ order, parcel, deliveries }: { order: Order; parcel: OrderShipment; deliveries: number }) {
  const t = useT();
  const locale = useLocale();
  const headingId = useId();
  const carrier = CARRIER_NAMES[parcel.carrier as CarrierId]?.[locale] ?? parcel.carrier;
  const deliverySeq = (order.shipments ?? []).filter((s) => s.kind === "delivery" && s.seq <= parcel.seq).length;
  return (
    <li className={`parcel parcel--${parcel.status}`} aria-labelledby={headingId} data-waybill={parcel.waybill}>
      <h4 id={headingId} className="parcel__title">
        {parcel.kind === "return"
          ? t("orders.parcels.returnParcel")
          : t("orders.parcels.parcel", { n: deliverySeq, count: deliveries })}
        <span className="parcel__status">{t(`orders.parcels.status.${parcel.status}`)}</span>
      </h4>
      <p className="parcel__meta muted">
        {t("orders.parcels.with", { carrier })} · {t("orders.parcels.waybill", { waybill: "" })}
        <bdi dir="ltr">{parcel.waybill}</bdi>
        {parcel.tracking_url ? (
          <>
            {" · "}
            <a href={parcel.tracking_url} target="_blank" rel="noopener noreferrer">
              {t("orders.parcels.track")}
            </a>
          </>
        ) : null}
      </p>
      {parcel.steps.length ? (
        <ol className="parcel__steps">
          {parcel.steps.map((step) => (
            <li key={`${step.status}-${step.at}`} className={`parcel__step parcel__step--${step.status}`}>
              <span className="parcel__step-name">{t(`orders.parcels.status.${step.status}`)}</span>
              <time className="muted" dateTime={step.at}>
                {formatDate(step.at, locale, true)}
              </time>
              {step.location ? <bdi className="muted">{step.location}</bdi> : null}
            </li>
          ))}
        </ol>
      ) : null}
      {deliveries > 1 && parcel.items.length ? (
        <p className="parcel__items">
          <span className="muted">{t("orders.parcels.items")}: </span>
          {parcel.items.map((i) => `${i.name} × ${i.quantity}`).join(locale === "ar" ? "، " : ", ")}
        </p>
      ) : null}
      {parcel.next_attempt_on ? (
        <p className="notice notice--info" role="status">
          {t("orders.parcels.nextAttempt", {
            day: `\u2068${shopArrivalDay(parcel.next_attempt_on, locale)}\u2069`,
          })}
        </p>
      ) : null}
      {parcel.attempt_days.length && !parcel.next_attempt_on ? (
        <Suspense fallback={null}>
          <NewAttempt order={order} parcel={parcel} />
        </Suspense>
      ) : null}
    </li>
  );
}
