import { COMPARISON_PATH, type SavedComparison } from "../../contract/comparison";
import { browserApi } from "./api/browser";
import { currentComparison, onComparisonChange, setCompared } from "./comparison";
import type { Locale } from "./locales";

/**
 * A signed-in shopper's pick kept with the account (contract/comparison.ts), loaded only for
 * them: on start, a browser with no pick takes the account's (picked on another device), and one
 * with a pick saves it; after that, every change is saved. Failures are quiet: the pick still
 * works in this browser. Returns the stop.
 */
export function syncComparison(locale: Locale): () => void {
  const api = browserApi(locale);
  let adopting = false;
  const save = () => {
    const pick = currentComparison();
    const body: SavedComparison = { group: pick.group, slugs: pick.items.map((i) => i.slug) };
    void api.put(COMPARISON_PATH, body).catch(() => undefined);
  };
  void api
    .get<SavedComparison>(COMPARISON_PATH)
    .then(({ data }) => {
      const local = currentComparison();
      if (local.items.length === 0 && data.slugs.length > 0) {
        adopting = true;
        setCompared({ group: data.group, items: data.slugs.map((slug) => ({ slug, name: slug })) });
        adopting = false;
      } else if (local.items.map((i) => i.slug).join() !== data.slugs.join()) save();
    })
    .catch(() => undefined);
  return onComparisonChange(() => {
    if (!adopting) save();
  });
}
