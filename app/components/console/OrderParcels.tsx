import { useEffect, useRef, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import type { ConsoleOrder } from "../../../contract/console-orders";
import { readCount } from "../../../contract/numbers";
import { CARRIER_NAMES, SHIPMENT_FINAL, type ConsoleShipment } from "../../../contract/shipping";
import { shopLongDay, shopMoment } from "../../../contract/shop-time";
import { toast } from "../../client/toast";
import { browserApi } from "../../lib/api/browser";
import { cancelShipment, createShipments, shippingDocumentHref } from "../../lib/api/console-shipments";
import { handleBrowserError } from "../../lib/browser-errors";
import { formatMoney, INTL_TAGS } from "../../lib/money";
import { countOf } from "../../lib/plural";
import { useLocale, useT } from "../../lib/use-locale";
import type { Locale } from "../../lib/locales";
import { ConfirmDialog } from "./ConfirmDialog";

/**
 * The order page's parcels with the carriers: each with its carrier, waybill, status and steps (the
 * carrier's own words and code, for staff), its weight and the cash it carries; a label to print and
 * a cancel while the carrier has not picked it up. Managers and owners create parcels from what is
 * left to ship: all of it at once, or some units now and the rest in a later parcel. Support reads.
 */

const STATUS_TONE: Partial<Record<ConsoleShipment["status"], "ok" | "warn" | "danger">> = {
  delivered: "ok",
  delivery_attempted: "warn",
  returned_to_sender: "danger",
  cancelled: "danger",
};

const kilograms = (grams: number, locale: Locale) =>
  new Intl.NumberFormat(INTL_TAGS[locale], {
    style: "unit",
    unit: "kilogram",
    unitDisplay: "short",
    maximumFractionDigits: 3,
  }).format(grams / 1000);

export function OrderParcelsPanel({ order }: { order: ConsoleOrder }) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const manage = !order.masked;
  const deliveries = order.shipments.filter((s) => s.kind === "delivery");
  const [cancelling, setCancelling] = useState<ConsoleShipment | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const cancel = async (parcel: ConsoleShipment) => {
    setCancelling(null);
    setBusy(true);
    const id = toast.loading(t("console.saving"));
    try {
      await cancelShipment(browserApi(locale), order.number, parcel.id);
      toast.success(t("console.parcels.cancelled", { waybill: parcel.waybill }), { id });
      await revalidator.revalidate();
      // The cancelled parcel's button is gone: the panel's heading keeps the keyboard's place.
      heading.current?.focus();
    } catch (error) {
      toast.dismiss(id);
      handleBrowserError(error, locale, (to) => void navigate(to));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="console-panel console-order__wide console-parcels" aria-labelledby="order-parcels" data-parcels>
      <h2 id="order-parcels" ref={heading} tabIndex={-1}>
        {t("console.parcels.title")}
      </h2>
      {order.shipments.length ? (
        <ol className="console-parcels__list">
          {order.shipments.map((s) => (
            <li key={s.id} data-parcel={s.seq} data-status={s.status}>
              <Parcel parcel={s} count={deliveries.length} currency={order.currency} />
              {manage && s.status !== "cancelled" ? (
                <div
                  className="console-parcels__actions"
                  role="group"
                  aria-label={t("console.parcels.actionsFor", { waybill: s.waybill })}
                >
                  <a
                    className="button button--ghost"
                    href={shippingDocumentHref(locale, { document: "labels.pdf", ids: [s.id] })}
                    target="_blank"
                    rel="noopener"
                  >
                    {t("console.parcels.printLabel")}
                  </a>
                  {s.cancellable ? (
                    <button
                      type="button"
                      className="button button--danger"
                      disabled={busy}
                      onClick={() => setCancelling(s)}
                    >
                      {t("console.parcels.cancel")}
                    </button>
                  ) : null}
                </div>
              ) : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="console-hint">{t("console.parcels.none")}</p>
      )}
      {manage && order.shippable.length ? (
        <CreateParcelForm order={order} onCreated={() => heading.current?.focus()} />
      ) : null}
      <ConfirmDialog
        open={cancelling !== null}
        title={t("console.parcels.cancelTitle", { waybill: cancelling?.waybill ?? "" })}
        confirmLabel={t("console.parcels.cancel")}
        cancelLabel={t("console.orderSteps.notNow")}
        onCancel={() => setCancelling(null)}
        onConfirm={() => {
          if (cancelling) void cancel(cancelling);
        }}
      >
        <p>{t("console.parcels.cancelBody")}</p>
      </ConfirmDialog>
    </section>
  );
}

/** One parcel: its facts, what is in it, and the carrier's steps, newest last. */
function Parcel({ parcel: s, count, currency }: { parcel: ConsoleShipment; count: number; currency: string }) {
  const t = useT();
  const locale = useLocale();
  const money = (n: number) => <bdi>{formatMoney(n, currency, locale)}</bdi>;
  const headingId = `parcel-${s.id}`;
  return (
    <article aria-labelledby={headingId}>
      <h3 id={headingId}>
        {s.kind === "return" ? t("console.parcels.returnParcel") : t("console.parcels.parcel", { n: s.seq, count })}{" "}
        <span className={`console-badge console-badge--${STATUS_TONE[s.status] ?? "warn"}`} data-parcel-status>
          {t(`orders.parcels.status.${s.status}`)}
        </span>
      </h3>
      <dl className="console-order__facts">
        <div>
          <dt>{t("console.parcels.carrier")}</dt>
          <dd>{CARRIER_NAMES[s.carrier]?.[locale] ?? s.carrier}</dd>
        </div>
        <div>
          <dt>{t("console.parcels.waybill")}</dt>
          <dd>
            {s.tracking_url ? (
              <a href={s.tracking_url} target="_blank" rel="noopener noreferrer">
                <bdi dir="ltr" data-waybill>
                  {s.waybill}
                </bdi>
              </a>
            ) : (
              <bdi dir="ltr" data-waybill>
                {s.waybill}
              </bdi>
            )}
          </dd>
        </div>
        <div>
          <dt>{t("console.parcels.weight")}</dt>
          <dd>{kilograms(s.weight_grams, locale)}</dd>
        </div>
        {s.cod_amount > 0 || s.remitted > 0 ? (
          <>
            <div>
              <dt>{t("console.parcels.codToCollect")}</dt>
              <dd>{money(s.cod_amount)}</dd>
            </div>
            <div>
              <dt>{t("console.parcels.remitted")}</dt>
              <dd>{money(s.remitted)}</dd>
            </div>
          </>
        ) : null}
        {s.next_attempt_on && !SHIPMENT_FINAL.includes(s.status) ? (
          <div>
            <dt>{t("console.parcels.requestedDay")}</dt>
            <dd>{shopLongDay(`${s.next_attempt_on}T12:00:00Z`, locale)}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t("console.parcels.createdAt")}</dt>
          <dd>{shopMoment(s.created_at, locale)}</dd>
        </div>
      </dl>
      {s.items.length ? (
        <>
          <h4>{t("console.parcels.items")}</h4>
          <ul className="console-parcels__items">
            {s.items.map((item) => (
              <li key={item.variant_id}>
                <bdi>{item.name}</bdi> × {item.quantity}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {s.steps.length ? (
        <>
          <h4>{t("console.parcels.steps")}</h4>
          <ol className="console-timeline">
            {s.steps.map((step, i) => (
              <li key={i}>
                <time dateTime={step.at}>{shopMoment(step.at, locale)}</time>
                <span className="console-timeline__what">{t(`orders.parcels.status.${step.status}`)}</span>
                {step.location ? <bdi>{step.location}</bdi> : null}
                <span className="console-hint">
                  <bdi>{step.description}</bdi>{" "}
                  <code dir="ltr" title={t("console.parcels.code", { code: step.code })}>
                    {step.code}
                  </code>
                </span>
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </article>
  );
}

/**
 * Units of each line still to ship, all of them by default; a 0 leaves a line for a later parcel.
 * The backend checks the units again (another tab may have shipped them meanwhile).
 */
function CreateParcelForm({ order, onCreated }: { order: ConsoleOrder; onCreated: () => void }) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [units, setUnits] = useState<Record<number, string>>({});
  const [message, setMessage] = useState("");
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);
  const alert = useRef<HTMLDivElement>(null);

  // A line not touched sends all that is left of it; the form follows the order as parcels are made.
  const typed = (line: ConsoleOrder["shippable"][number]) => units[line.variant_id] ?? String(line.left);
  const problems = order.shippable
    .map((line) => {
      const reading = readCount(typed(line));
      return !reading.ok || reading.value > line.left ? line.variant_id : null;
    })
    .filter((v): v is number => v !== null);

  useEffect(() => {
    if (attempt && message) alert.current?.focus();
  }, [attempt, message]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setAttempt((n) => n + 1);
    const lines = order.shippable.map((line) => {
      const reading = readCount(typed(line));
      return { variant_id: line.variant_id, quantity: reading.ok ? reading.value : -1 };
    });
    if (problems.length) {
      setMessage(t("console.parcels.errors.units"));
      return;
    }
    if (!lines.some((l) => l.quantity > 0)) {
      setMessage(t("console.parcels.errors.empty"));
      return;
    }
    setMessage("");
    setBusy(true);
    const id = toast.loading(t("console.saving"));
    try {
      const answer = await createShipments(browserApi(locale), order.number, [
        { lines: lines.filter((l) => l.quantity > 0) },
      ]);
      const made = answer.data.shipments.at(-1);
      toast.success(t("console.parcels.created", { waybill: made?.waybill ?? "" }), { id });
      setUnits({});
      await revalidator.revalidate();
      onCreated();
    } catch (error) {
      toast.dismiss(id);
      const handled = handleBrowserError(error, locale, (to) => void navigate(to));
      // Every refusal is said in the form (a carrier's no, units shipped meanwhile), not only in a toast.
      setMessage([handled.message, ...(handled.errors ?? []).map((f) => f.message)].filter(Boolean).join(" "));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form console-parcels__create" onSubmit={submit} noValidate aria-labelledby="parcel-create-title">
      <h3 id="parcel-create-title">{t("console.parcels.createTitle")}</h3>
      <p className="console-hint" id="parcel-create-hint">
        {t("console.parcels.createHint")}
      </p>
      {message ? (
        <div ref={alert} className="form__summary" role="alert" tabIndex={-1} data-parcel-error>
          <p className="form__summary-message">{message}</p>
        </div>
      ) : null}
      <table>
        <thead>
          <tr>
            <th scope="col">{t("console.orders.product")}</th>
            <th scope="col">{t("console.parcels.unitsNow")}</th>
          </tr>
        </thead>
        <tbody>
          {order.shippable.map((line) => {
            const inputId = `parcel-units-${line.variant_id}`;
            const invalid = attempt > 0 && problems.includes(line.variant_id);
            return (
              <tr key={line.variant_id}>
                <th scope="row">
                  <label htmlFor={inputId}>
                    <bdi>{line.name}</bdi>
                  </label>
                </th>
                <td>
                  <input
                    id={inputId}
                    name={`units-${line.variant_id}`}
                    // Text, not number: a number input refuses Arabic-Indic digits ("١").
                    type="text"
                    inputMode="numeric"
                    autoComplete="off"
                    size={4}
                    value={typed(line)}
                    aria-invalid={invalid ? true : undefined}
                    aria-describedby={`${inputId}-left parcel-create-hint`}
                    onChange={(e) => setUnits((u) => ({ ...u, [line.variant_id]: e.target.value }))}
                  />{" "}
                  <span id={`${inputId}-left`} className="console-hint">
                    {countOf(t, locale, "console.parcels.left", line.left)}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div>
        <button type="submit" className="button button--primary" disabled={busy}>
          {t("console.parcels.create")}
        </button>
      </div>
    </form>
  );
}
