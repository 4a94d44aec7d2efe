import { orderStatusKey, orderStatusTone, paymentStatusKey } from "../../lib/orders";
import { useT } from "../../lib/use-locale";

const TONES = { ok: "ok", progress: "warn", danger: "danger", neutral: "" } as const;

/**
 * A badge's words: the state alone where a column heading already names it (lists), or, with
 * `label`, the state after what it is the state of ("Payment: Paid"), so that an order's two
 * badges side by side never read as the same word twice, on screen or to a screen reader.
 */
function Badge({ tone, label, text }: { tone: string; label?: string; text: string }) {
  return (
    <span
      className={`console-badge${tone ? ` console-badge--${tone}` : ""}`}
      data-badge={label ? "labelled" : undefined}
    >
      {label ? <span className="console-badge__label">{label}</span> : null}
      {text}
    </span>
  );
}

/** An order's state as the console's badge, in the staff member's language. */
export function OrderStatusBadge({ status, labelled = false }: { status: string; labelled?: boolean }) {
  const t = useT();
  const key = orderStatusKey(status);
  const text = key ? t(key) : status;
  return (
    <Badge
      tone={TONES[orderStatusTone(status)]}
      label={labelled ? t("console.vocabulary.orderBadge") : undefined}
      text={text}
    />
  );
}

/** A payment's state as a badge: paid is good news, a refund worth a look, a failure a problem. */
export function PaymentStatusBadge({ status, labelled = false }: { status: string; labelled?: boolean }) {
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
  return (
    <Badge
      tone={tone}
      label={labelled ? t("console.vocabulary.paymentBadge") : undefined}
      text={key ? t(key) : status}
    />
  );
}
