import { orderStatusKey, orderStatusTone, paymentStatusKey } from "../../lib/orders";
import { useT } from "../../lib/use-locale";

const TONES = { ok: "ok", progress: "warn", danger: "danger", neutral: "" } as const;

/** An order's state as the console's badge, in the staff member's language. */
export function OrderStatusBadge({ status }: { status: string }) {
  const t = useT();
  const key = orderStatusKey(status);
  const tone = TONES[orderStatusTone(status)];
  return <span className={`console-badge${tone ? ` console-badge--${tone}` : ""}`}>{key ? t(key) : status}</span>;
}

/** A payment's state as a badge: paid is good news, a refund worth a look, a failure a problem. */
export function PaymentStatusBadge({ status }: { status: string }) {
  const t = useT();
  const key = paymentStatusKey(status);
  const tone =
    status === "paid"
      ? "ok"
      : status === "failed"
        ? "danger"
        : status.includes("refunded") || status === "pending"
          ? "warn"
          : "";
  return <span className={`console-badge${tone ? ` console-badge--${tone}` : ""}`}>{key ? t(key) : status}</span>;
}
