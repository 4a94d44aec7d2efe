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
      <span className="price__now">
        {onSale ? <span className="visually-hidden">{t("catalogue.priceNow")} </span> : null}
        <bdi>{label ?? formatMoney(price, currency, locale)}</bdi>
      </span>
      {onSale ? (
        <s className="price__was">
          <span className="visually-hidden">{t("catalogue.priceWas")} </span>
          <bdi>{compareLabel ?? formatMoney(compareAt, currency, locale)}</bdi>
        </s>
      ) : null}
    </span>
  );
}
