import { Link } from "../lib/link";
import { useLocalePath, useT } from "../lib/use-locale";

/**
 * An order's page opened with a link or grant the shop refuses (tampered, expired, another
 * order's): says so and offers tracking, prefilled with the number, which leads back to the
 * order's page. Nothing of any order is shown.
 */
export function OrderLinkRefused({ number }: { number: string }) {
  const t = useT();
  const to = useLocalePath();
  return (
    <div className="notice notice--info order-link-refused" role="status">
      <h2>{t("orderLink.refusedTitle")}</h2>
      <p>{t("orderLink.refused")}</p>
      <p>
        <Link className="button button--primary" to={`${to("/track-order")}?order=${encodeURIComponent(number)}`}>
          {t("orderLink.trackOrder")}
        </Link>
      </p>
    </div>
  );
}
