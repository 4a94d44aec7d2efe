import type { ConsoleProductRow } from "../../../contract/console-catalogue-shapes";
import { useT } from "../../lib/use-locale";

/** The product list's pieces: the thumbnail and the stock badge. */

const THUMB = 48;

export function ProductThumb({ src }: { src: string | null }) {
  return src ? (
    <img className="console-thumb" src={src} alt="" width={THUMB} height={THUMB} loading="lazy" decoding="async" />
  ) : (
    <span className="console-thumb console-thumb--none" aria-hidden="true" />
  );
}

/** The stock, with a badge when it is low or out. */
export function StockBadge({ row }: { row: Pick<ConsoleProductRow, "stock" | "low_stock_threshold"> }) {
  const t = useT();
  if (row.stock === 0)
    return <span className="console-badge console-badge--danger">{t("console.products.stockState.out")}</span>;
  if (row.stock <= row.low_stock_threshold)
    return (
      <span className="console-badge console-badge--warn">{t("console.products.lowStock", { n: row.stock })}</span>
    );
  return <>{row.stock}</>;
}
