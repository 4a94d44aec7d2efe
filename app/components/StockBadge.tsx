import { LOW_STOCK } from "../lib/catalogue";
import { useT } from "../lib/use-locale";

/** In stock, only N left, or out of stock; the colour is never the only signal. */
export function StockBadge({ stock, inStock, long = false }: { stock: number; inStock: boolean; long?: boolean }) {
  const t = useT();
  const ns = long ? "product" : "catalogue";
  if (!inStock || stock < 1) return <span className="stock stock--out">{t("catalogue.outOfStock")}</span>;
  if (stock <= LOW_STOCK) return <span className="stock stock--low">{t(`${ns}.lowStock`, { count: stock })}</span>;
  return <span className="stock stock--in">{t(`${ns}.inStock`)}</span>;
}
