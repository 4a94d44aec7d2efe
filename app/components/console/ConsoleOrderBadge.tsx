import { orderStatusKey, orderStatusTone } from "../../lib/orders";
import { useT } from "../../lib/use-locale";

const TONES = {
  ok: " console-badge--ok",
  progress: " console-badge--warn",
  danger: " console-badge--danger",
  neutral: "",
} as const;

/** An order's state as a console badge, in the shop's words for it (the shop's badge lives in cart.css). */
export function ConsoleOrderBadge({ status }: { status: string }) {
  const t = useT();
  const key = orderStatusKey(status);
  return <span className={`console-badge${TONES[orderStatusTone(status)]}`}>{key ? t(key) : status}</span>;
}
