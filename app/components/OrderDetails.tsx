import { formatMoney } from "../lib/money";
import {
  formatDate,
  methodName,
  ORDER_PROGRESS,
  paymentStatusKey,
  progressStatus,
  reachedSteps,
  type Order,
  type OrderAddress,
} from "../lib/orders";
import { useLocale, useT } from "../lib/use-locale";
import { OrderDocuments } from "./OrderDocuments";
import { OrderStatusBadge } from "./OrderStatusBadge";
import { OrderSummary } from "./OrderSummary";
import { lineKey } from "../../contract/cart";
import { NationalAddressLine } from "./NationalAddress";
import { lazy, Suspense } from "react";

/** Only a shipped order has parcels: their chunk loads for those, not with every order page. */
const OrderParcels = lazy(() => import("./OrderParcels").then((m) => ({ default: m.OrderParcels })));

/**
 * The progress of an order: the steps it walked, the one it is at, and a failure when it left the
 * path. A cash-on-delivery order's first steps are its confirmation, not a payment.
 */
export function OrderTimeline({ status, cashOnDelivery = false }: { status: string; cashOnDelivery?: boolean }) {
  const t = useT();
  const reached = reachedSteps(status);
  const left = status === "payment_failed" || status === "cancelled";
  return (
    <ol className="timeline" aria-label={t("orders.timeline")}>
      {ORDER_PROGRESS.map((step, i) => {
        const done = reached.has(step);
        const current = !left && step === status;
        const failedHere = left && i === 1;
        return (
          <li
            key={step}
            className={`timeline__step${done ? " timeline__step--done" : ""}${current ? " timeline__step--current" : ""}${failedHere ? " timeline__step--failed" : ""}`}
            aria-current={current ? "step" : undefined}
          >
            <span className="timeline__dot" aria-hidden="true" />
            <span className="timeline__label">
              {failedHere
                ? t(`orders.statuses.${status}`)
                : cashOnDelivery && (step === "pending_payment" || step === "paid")
                  ? t(`orders.codSteps.${step}`)
                  : t(`orders.statuses.${step}`)}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/**
 * What happened after payment: the carrier and its tracking number once shipped, the delivery,
 * and any refund with the payment's state. Nothing while none of it happened.
 */
export function OrderShipment({ order }: { order: Order }) {
  const t = useT();
  const locale = useLocale();
  const refunded = order.refunded ?? 0;
  if (!order.carrier && !order.tracking_number && !order.delivered_at && refunded === 0) return null;
  const paymentKey = paymentStatusKey(order.payment_status);
  // Parcels list their own carrier and waybill (OrderParcels); the order's first would repeat them.
  const parcels = Boolean(order.shipments?.length);
  return (
    <section className="order-details__box order-shipment" aria-labelledby="order-shipment-title">
      <h3 id="order-shipment-title">{t("orders.shipmentTitle")}</h3>
      <dl className="order-shipment__list">
        {order.carrier && !parcels ? (
          <div>
            <dt>{t("orders.carrier")}</dt>
            <dd>
              <bdi>{order.carrier}</bdi>
            </dd>
          </div>
        ) : null}
        {order.tracking_number && !parcels ? (
          <div>
            <dt>{t("orders.trackingNumber")}</dt>
            <dd>
              <bdi dir="ltr" className="order-shipment__tracking">
                {order.tracking_number}
              </bdi>
            </dd>
          </div>
        ) : null}
        {order.shipped_at ? (
          <div>
            <dt>{t("orders.shippedAt")}</dt>
            <dd>{formatDate(order.shipped_at, locale, true)}</dd>
          </div>
        ) : null}
        {order.delivered_at ? (
          <div>
            <dt>{t("orders.deliveredAt")}</dt>
            <dd>{formatDate(order.delivered_at, locale, true)}</dd>
          </div>
        ) : null}
        {refunded > 0 ? (
          <>
            <div>
              <dt>{t("orders.paymentStatus")}</dt>
              <dd>{paymentKey ? t(paymentKey) : order.payment_status}</dd>
            </div>
            <div>
              <dt>{t("orders.refunded")}</dt>
              <dd>
                <bdi>{formatMoney(refunded, order.currency, locale)}</bdi>
              </dd>
            </div>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** A cash-on-delivery order: waiting for its phone code, or what the shopper pays at the door. */
function CashOnDelivery({ order }: { order: Order }) {
  const t = useT();
  const locale = useLocale();
  if (order.payment_method !== "cod") return null;
  if (order.status === "pending_payment")
    return (
      <p className="notice" role="status">
        {t("orders.codAwaiting")}
      </p>
    );
  if (order.payment_status !== "pending" || !["processing", "shipped"].includes(order.status)) return null;
  return (
    <p className="notice notice--info cod-due">
      {t("orders.codDue", { amount: `\u2068${formatMoney(order.total, order.currency, locale)}\u2069` })}
    </p>
  );
}

/** An order: number, date, status and its progress, items, totals, and (when given) the address. */
export function OrderDetails({ order, children }: { order: Order; children?: React.ReactNode }) {
  const t = useT();
  const locale = useLocale();
  const money = (n: number) => <bdi>{formatMoney(n, order.currency, locale)}</bdi>;
  // A tracked order carries the city alone; the owner's own view the whole address.
  const address: Partial<OrderAddress> | null = order.address;
  // The order names its methods by id; the shop says them in the visitor's language.
  const methodLabel = (id: string) =>
    /^\w+$/.test(id) && t(`orders.methods.${id}`) !== `orders.methods.${id}` ? t(`orders.methods.${id}`) : id;
  const shipping = methodLabel(methodName(order.shipping_method));
  const payment = methodLabel(methodName(order.payment_method));
  return (
    <article className="order-details" aria-labelledby="order-title">
      <header className="order-details__head">
        <div>
          <h2 id="order-title" className="order-details__title">
            {t("orders.orderTitle", { number: "" })}
            <bdi>{order.number}</bdi>
          </h2>
          <p className="muted order-details__date">
            {t("orders.placedOn", { date: formatDate(order.created_at, locale, true) })}
          </p>
        </div>
        <OrderStatusBadge status={order.status} />
      </header>
      {/* The promise kept when the order was placed, until it is delivered. */}
      {order.delivery_promise ? <p className="order-details__promise">{order.delivery_promise.text}</p> : null}
      <OrderTimeline status={progressStatus(order)} cashOnDelivery={order.payment_method === "cod"} />
      <OrderShipment order={order} />
      {order.shipments?.length ? (
        <Suspense fallback={null}>
          <OrderParcels order={order} />
        </Suspense>
      ) : null}
      <OrderDocuments order={order} />
      <CashOnDelivery order={order} />
      {children}
      <div className="order-details__grid">
        <section className="order-details__items" aria-labelledby="order-items-title">
          <h3 id="order-items-title">{t("orders.itemsTitle")}</h3>
          <ul className="order-items">
            {order.items.map((item) => (
              <li key={lineKey(item)} className="order-item">
                {item.image ? (
                  <img src={item.image} alt="" width={56} height={56} loading="lazy" />
                ) : (
                  <span className="order-item__img" />
                )}
                <span className="order-item__name">{item.name}</span>
                <span className="order-item__qty muted">{t("orders.quantity", { n: item.quantity })}</span>
                <span className="order-item__total">{money(item.line_total)}</span>
              </li>
            ))}
          </ul>
        </section>
        <div className="order-details__side">
          <OrderSummary
            title={t("cart.summary")}
            totals={{
              subtotal: order.subtotal,
              discount: order.discount,
              shipping: order.shipping,
              ...(order.cod_fee ? { cod_fee: order.cod_fee } : {}),
              vat: order.vat,
              total: order.total,
              currency: order.currency,
            }}
          />
          {address && (address.street || address.city) ? (
            <section className="order-details__box" aria-labelledby="order-address-title">
              <h3 id="order-address-title">{t("orders.addressTitle")}</h3>
              <address>
                {address.name ? (
                  <>
                    {address.name}
                    <br />
                  </>
                ) : null}
                {[address.street, address.building].filter(Boolean).join(" ")}
                {address.street || address.building ? <br /> : null}
                {[address.district, address.city, address.postal_code]
                  .filter(Boolean)
                  .join(locale === "ar" ? "، " : ", ")}
                <NationalAddressLine address={address} />
                {address.phone ? (
                  <>
                    <br />
                    <bdi>{address.phone}</bdi>
                  </>
                ) : null}
              </address>
            </section>
          ) : null}
          {shipping || payment ? (
            <dl className="order-details__box order-details__methods">
              {shipping ? (
                <div>
                  <dt>{t("orders.shippingMethod")}</dt>
                  <dd>{shipping}</dd>
                </div>
              ) : null}
              {payment ? (
                <div>
                  <dt>{t("orders.paymentMethod")}</dt>
                  <dd>{payment}</dd>
                </div>
              ) : null}
            </dl>
          ) : null}
        </div>
      </div>
    </article>
  );
}
