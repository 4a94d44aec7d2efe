import { useEffect, useRef, useState } from "react";
import { E164, EMAIL } from "../../../contract/inputs";
import { browserApi } from "../../lib/api/browser";
import { setCartContact } from "../../lib/api/cart-reminders";
import { getConsents } from "../../lib/api/consents";
import { ensureGuestId } from "../../lib/cart";
import { useLocale, useT } from "../../lib/use-locale";

/**
 * "Remind me about my cart": asked apart from the order (its own box, never ticked for the
 * shopper, nothing to do with placing the order), in the words the consent log records
 * (`consents.cart_reminders`). A guest sees it once they have typed an email, or the delivery
 * phone without one; a signed-in shopper's answer is their account's (shown as it stands). Ticking sends the answer at
 * once, and again when the address changes while ticked; unticking withdraws it.
 */
export function CartReminderConsent({ signedIn, email, phone }: { signedIn: boolean; email: string; phone: string }) {
  const t = useT();
  const locale = useLocale();
  const [checked, setChecked] = useState(false);
  const [status, setStatus] = useState<{ text: string; failed: boolean } | null>(null);
  const trimmed = email.trim();
  const contact: { email?: string; phone?: string } | null = EMAIL.test(trimmed)
    ? { email: trimmed }
    : E164.test(phone)
      ? { phone }
      : null;
  const address: string = contact?.email ?? contact?.phone ?? "";
  const sentFor = useRef<string | null>(null);

  const send = async (consent: boolean, to: typeof contact) => {
    try {
      await ensureGuestId(locale);
      await setCartContact(browserApi(locale), { ...(signedIn ? {} : (to ?? {})), consent });
      sentFor.current = consent ? address : null;
      setStatus({
        text: t(consent ? "cartReminders.checkout.saved" : "cartReminders.checkout.withdrawn"),
        failed: false,
      });
    } catch {
      setChecked(!consent);
      setStatus({ text: t("cartReminders.checkout.failed"), failed: true });
    }
  };

  // A signed-in shopper's box shows their account's answer (given here before, or in the profile).
  useEffect(() => {
    if (!signedIn) return;
    getConsents(browserApi(locale))
      .then((res) => setChecked(res.data.current.cart_reminders))
      .catch(() => undefined);
  }, [signedIn, locale]);

  // The address changed while ticked: the reminder goes to the new one, once typing settles.
  useEffect(() => {
    if (!checked || signedIn || !contact || sentFor.current === null || sentFor.current === address) return;
    const timer = setTimeout(() => void send(true, contact), 800);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the address and the answer matter
  }, [address, checked]);

  if (!signedIn && !contact) return null;
  return (
    <fieldset className="checkout__section checkout__reminder" aria-labelledby="co-reminder-title">
      <span id="co-reminder-title" className="visually-hidden">
        {t("cartReminders.checkout.legend")}
      </span>
      <label className="checkout__business-toggle">
        <input
          type="checkbox"
          name="cart_reminders"
          checked={checked}
          aria-describedby="co-reminder-hint"
          onChange={(e) => {
            const consent = e.target.checked;
            setChecked(consent);
            void send(consent, contact);
          }}
        />
        <span>{t("consents.cart_reminders")}</span>
      </label>
      <p id="co-reminder-hint" className="field__hint muted">
        {signedIn
          ? t("cartReminders.checkout.hintAccount")
          : t("cartReminders.checkout.hintEmail", { address: `\u2068${address}\u2069` })}
      </p>
      <p className={status?.failed ? "field__error" : "muted"} role="status">
        {status?.text ?? ""}
      </p>
    </fieldset>
  );
}
