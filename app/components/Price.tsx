import { formatMoney } from "../lib/money";
import { useLocale, useT } from "../lib/use-locale";

export interface PriceProps {
  /** Price in minor units (halalas). */
  price: number;
  /** The former price, shown struck through when higher than the price. */
  compareAt?: number | null;
  currency: string;
  size?: "sm" | "md" | "lg";
  className?: string;
  /** The price already formatted by the server (`withPriceLabels`): shown as is, no Intl here. */
  label?: string;
  /** The former price, formatted likewise. */
  compareLabel?: string | null;
}

/** A price, and the struck former price when the product is on sale. Both isolated in `<bdi>`. */
export function Price({ price, compareAt, currency, size = "md", className, label, compareLabel }: PriceProps) {
  const locale = useLocale();
  const t = useT();
  const onSale = typeof compareAt === "number" && compareAt > price;
  return (
    <span
      className={["price", `price--${size}`, onSale ? "price--sale" : "", className ?? ""].filter(Boolean).join(" ")}
    >
      {/* Not on sale, the price alone: its <bdi> carries the class rather than a span around it
          (one element less per card; a flex item either way, so it looks the same). */}
      {onSale ? (
        <span className="price__now">
          <span className="visually-hidden">{`${t("catalogue.priceNow")} `}</span>
          <bdi>{label ?? formatMoney(price, currency, locale)}</bdi>
        </span>
      ) : (
        <bdi className="price__now">{label ?? formatMoney(price, currency, locale)}</bdi>
      )}
      {onSale ? (
        <s className="price__was">
          <span className="visually-hidden">{`${t("catalogue.priceWas")} `}</span>
          <bdi>{compareLabel ?? formatMoney(compareAt, currency, locale)}</bdi>
        </s>
      ) : null}
    </span>
  );
}
