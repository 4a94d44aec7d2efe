import type { ListMeta, ProductFacets, ProductSummary } from "../../../../contract/catalogue";
import { attributeFacetsOf } from "./attribute-filters";
import { sumsOfRows, type FacetRow } from "./facet-cells";
import { sumsOf, type HeldCells } from "./held-cells";
import type { PageShape } from "./list-builder";
import type { PageRows } from "./list-runner";
import { PRICE_BANDS } from "./search-ranking";
import { withChosen } from "./search-variants";
import { toSummary } from "./summary";
import type { Taxonomy } from "./taxonomy";

/**
 * The list page's assembler: the rows its batch read (list-runner.ts) as the contract's answer,
 * with no read of its own: which way of reading answered (a search's kept copy, or the page as
 * read), its total and its facets. Pure but for the held cells' memo of their sums (held-cells.ts),
 * which changes no answer.
 */

/** One page of the list, as the contract answers it. */
export type Listed = { data: ProductSummary[]; meta: ListMeta };

/**
 * A page's answer; for a search, `kept` is the state of its kept copy as the page was read
 * ("current", "stale": of an older version, "none"). When the copy was read a current one answered;
 * otherwise the page as read did (a list, or a search ranked afresh). `matches`: how many shown
 * products a search matched, when its page counted them all (no filter); `searchVersion`: the
 * `search` version a search was read in.
 */
export interface Answer {
  listed: Listed;
  kept: "current" | "stale" | "none";
  matches?: number;
  /** A search's: the `search` version as its page was read (services/catalogue/spelling.ts holds terms under it). */
  searchVersion?: number;
}

/**
 * The page's answer from its rows. `readCells`: the kept counts' cells read with this page (now
 * held), when it read them.
 */
export function assemblePage(
  shape: PageShape,
  rows: PageRows,
  readCells: HeldCells | undefined,
  tax: Taxonomy,
): Answer {
  const { filters, searching, keptFirst, filtered, offset, cellFilters, otherThanPrice, held, summed } = shape;
  const { state } = rows;
  const kept: Answer["kept"] =
    !state || state.kept === null ? "none" : state.kept === state.version ? "current" : "stale";
  // A current copy answers when it was read; ranking afresh, when it was not (or there is none).
  const keptAnswered = kept === "current" && keptFirst;
  const answer = keptAnswered ? rows.fromKept : rows.asRead;
  const page = answer.page ?? [];
  // Cells read with this page: the kept counts' (now held, their sum kept with them); or a
  // search's sums, of its kept cells or its matches grouped alike.
  // Price bounds that are no band's: the price facet leaves them out, so every band's cells
  // (held, or read with this page) answer it.
  const bandCells = otherThanPrice && !searching ? (held ?? readCells) : undefined;
  const sums =
    summed ??
    (readCells && cellFilters
      ? sumsOf(readCells, cellFilters)
      : answer.sums
        ? sumsOfRows([
            ...answer.sums.filter((r) => !bandCells || r.facet !== "price"),
            ...(bandCells ? sumsOf(bandCells, otherThanPrice!).rows.filter((r) => r.facet === "price") : []),
          ])
        : null);
  const facetRows = filters.facets ? (sums?.rows ?? answer.facets ?? []) : [];
  // A search ranked afresh carries its total on its page's rows.
  const ranked = searching && !keptAnswered;
  const total = ranked ? Number(page[0]?.total_count ?? 0) : sums ? sums.total : Number(answer.total?.[0]?.n ?? 0);
  return {
    listed: {
      // A search's products of several variants carry the choice its words named.
      data: withChosen(filters.q, page, (ranked && offset >= total ? [] : page).map(toSummary)),
      meta: {
        page: filters.page,
        per_page: filters.per_page,
        total,
        last_page: Math.max(1, Math.ceil(total / filters.per_page)),
        ...(filters.facets
          ? {
              facets: {
                ...facetsOf(tax, facetRows),
                ...(shape.attributeDefs.length
                  ? { attributes: attributeFacetsOf(shape.lang, shape.attributeDefs, rows.attributes) }
                  : {}),
              },
            }
          : {}),
      },
    },
    kept,
    ...(ranked && !filtered ? { matches: total } : {}),
    ...(state ? { searchVersion: Number(state.version) } : {}),
  };
}

/** The facet counts as the contract's; a category counts its descendants' products too. */
function facetsOf(tax: Taxonomy, rows: FacetRow[]): ProductFacets {
  const counts = new Map<number, number>();
  const brands: { slug: string; count: number }[] = [];
  const bands = PRICE_BANDS.map(() => 0);
  let inStock = 0;
  for (const { facet, id, n } of rows) {
    const count = Number(n);
    if (facet === "category") {
      for (let at: number | null | undefined = id; at != null; at = tax.parent.get(at)) {
        counts.set(at, (counts.get(at) ?? 0) + count);
      }
    } else if (facet === "brand") {
      const slug = tax.brandSlug.get(id);
      if (slug && count > 0) brands.push({ slug, count });
    } else if (facet === "price") bands[id] = (bands[id] ?? 0) + count;
    else inStock = count;
  }
  return {
    categories: [...counts]
      .filter(([, count]) => count > 0)
      .map(([id, count]) => ({ slug: tax.slug.get(id) ?? "", count }))
      .filter((c) => c.slug),
    brands,
    price_bands: PRICE_BANDS.map((band, i) => ({ ...band, count: bands[i] })),
    in_stock: inStock,
  };
}
