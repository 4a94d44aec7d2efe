import { useId, useState } from "react";
import { useRevalidator } from "react-router";
import type { OrderShipment } from "../../contract/shipping";
import { shopArrivalDay } from "../../contract/shop-time";
import { browserApi } from "../lib/api/browser";
import { ApiError } from "../lib/api/errors";
import { rescheduleParcel } from "../lib/api/self-service";
import { readOrderGrant } from "../lib/order-grants";
import type { Order } from "../lib/orders";
import { useLocale, useT } from "../lib/use-locale";

/** A missed delivery: the owner picks one of the offered working days; the page reloads the order. */
export function ParcelNewAttempt({ order, parcel }: { order: Order; parcel: OrderShipment }) {
  const t = useT();
  const locale = useLocale();
  const revalidator = useRevalidator();
  const selectId = useId();
  const errorId = useId();
  const [day, setDay] = useState(parcel.attempt_days[0]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await rescheduleParcel(browserApi(locale), order.number, parcel.seq, day, readOrderGrant(order.number));
      await revalidator.revalidate();
    } catch (err) {
      setError(err instanceof ApiError ? (err.errors.day?.[0] ?? err.message) : t("error.generic"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="parcel__attempt" onSubmit={(e) => void submit(e)}>
      <p role="status">{t("orders.parcels.missed")}</p>
      <label htmlFor={selectId}>{t("orders.parcels.day")}</label>
      <select
        id={selectId}
        value={day}
        onChange={(e) => setDay(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      >
        {parcel.attempt_days.map((d) => (
          <option key={d} value={d}>
            {shopArrivalDay(d, locale)}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
        {t("orders.parcels.choose")}
      </button>
      {error ? (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
