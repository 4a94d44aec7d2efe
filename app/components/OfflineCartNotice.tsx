import { useAtom, useAtomValue } from "jotai";
import { formatMoney } from "../lib/money";
import { useLocale, useT } from "../lib/use-locale";
import { onlineAtom } from "../state/pwa";
import { offlineConflictsAtom, type OfflineConflict } from "../state/offline-cart";

/**
 * What became of the cart changes made offline, when not what the shopper asked for (lib/offline-cart):
 * each line and why, in the shopper's language, prices formatted by Intl. Shown in the drawer and
 * on the cart page until dismissed; `id` tells the two apart, `heading` fits the page's outline.
 */
export function OfflineCartNotice({ id, heading: Heading = "h3" }: { id: string; heading?: "h2" | "h3" }) {
  const t = useT();
  const locale = useLocale();
  const [conflicts, setConflicts] = useAtom(offlineConflictsAtom);
  if (!conflicts.length) return null;
  const why = (c: OfflineConflict): string => {
    switch (c.kind) {
      case "soldOut":
        return t("offlineCart.soldOut");
      case "unavailable":
        return t("offlineCart.unavailable");
      case "reduced":
        return t("offlineCart.reduced", { count: c.quantity, wanted: c.wanted });
      case "priceChanged":
        return t("offlineCart.priceChanged", {
          was: formatMoney(c.was, c.currency, locale),
          now: formatMoney(c.now, c.currency, locale),
        });
    }
  };
  return (
    <section className="offline-notice" aria-labelledby={`${id}-title`} data-offline-notice="">
      <Heading id={`${id}-title`} className="offline-notice__title">
        {t("offlineCart.noticeTitle")}
      </Heading>
      <p className="offline-notice__intro">{t("offlineCart.noticeIntro")}</p>
      <ul className="offline-notice__list">
        {conflicts.map((c) => (
          <li key={`${c.key}-${c.kind}`} data-conflict={c.kind}>
            <strong>
              <bdi>{c.variant ? `${c.name} (${c.variant})` : c.name}</bdi>
            </strong>{" "}
            {why(c)}
          </li>
        ))}
      </ul>
      <button type="button" className="button button--ghost offline-notice__dismiss" onClick={() => setConflicts([])}>
        {t("offlineCart.dismiss")}
      </button>
    </section>
  );
}

/** Checkout needs the backend: offline, the way on is replaced by a note saying so. */
export function CheckoutNeedsConnection({ children }: { children: React.ReactNode }) {
  const t = useT();
  const online = useAtomValue(onlineAtom);
  if (online) return <>{children}</>;
  return (
    <p className="offline-notice offline-notice--checkout" role="status">
      {t("offlineCart.checkoutNeedsConnection")}
    </p>
  );
}
