import { useEffect, useRef } from "react";
import type { CartRestored } from "../../contract/cart-reminders";
import { useLocale, useT } from "../lib/use-locale";

/**
 * On the cart page after a reminder's link brought the cart back: it says so, and names what
 * could not come back (no longer sold, out of stock) or came back fewer. Focused once, so a
 * screen reader starts from it.
 */
export function CartRestoredNote({ restored }: { restored: CartRestored }) {
  const t = useT();
  const locale = useLocale();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  const list = (names: string[]) => names.map((n) => `\u2068${n}\u2069`).join(locale === "ar" ? "، " : ", ");
  return (
    <div
      ref={ref}
      className="notice notice--ok cart-restored"
      role="status"
      tabIndex={-1}
      aria-labelledby="cart-restored-title"
    >
      <p id="cart-restored-title">
        <strong>{t("cartReminders.restored.title")}</strong>
      </p>
      {restored.unavailable.length ? (
        <p>{t("cartReminders.restored.unavailable", { list: list(restored.unavailable) })}</p>
      ) : null}
      {restored.reduced.length ? <p>{t("cartReminders.restored.reduced", { list: list(restored.reduced) })}</p> : null}
      {restored.promo_code ? <p>{t("cartReminders.restored.promo", { code: restored.promo_code })}</p> : null}
    </div>
  );
}
