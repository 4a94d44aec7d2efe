import { useT } from "../lib/use-locale";
import { orderStatusKey, orderStatusTone } from "../lib/orders";

/** An order's state as a coloured, localized badge. */
export function OrderStatusBadge({ status }: { status: string }) {
  const t = useT();
  const key = orderStatusKey(status);
  return <span className={`status-badge status-badge--${orderStatusTone(status)}`}>{key ? t(key) : status}</span>;
}
