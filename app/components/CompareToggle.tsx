import { toast } from "../client/toast";
import { MAX_COMPARED, toggleCompared, useComparison, type ComparedItem } from "../lib/comparison";
import { useT } from "../lib/use-locale";

/**
 * A product's Compare button (a toggle: pressed while the product is in this browser's pick).
 * A full pick refuses the product, saying why; a product of another category starts a new pick.
 * It needs JavaScript, as the pick lives in the browser: without it, the comparison page's links
 * are the way (a shared comparison opens and edits without any).
 */
export function CompareToggle({ item, group }: { item: ComparedItem; group: string }) {
  const t = useT();
  const pick = useComparison();
  const picked = pick.items.some((i) => i.slug === item.slug);
  return (
    <button
      type="button"
      className="compare-toggle"
      aria-pressed={picked}
      aria-label={t("compare.addOne", { name: item.name })}
      onClick={() => {
        const result = toggleCompared(item, group);
        if (result === "full") toast.error(t("compare.full", { max: MAX_COMPARED }));
        else if (result === "restarted") toast(t("compare.restarted"));
      }}
    >
      <span aria-hidden="true" className="compare-toggle__box" />
      {t("compare.add")}
    </button>
  );
}
