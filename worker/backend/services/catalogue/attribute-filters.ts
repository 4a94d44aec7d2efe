import type { AttributeFacet, AttributeFilter } from "../../../../contract/catalogue";
import type { Lang } from "../../env";
import { CELL_COLUMNS, type AttributeFacetName, type CellFilter, type Filter } from "./facet-cells";
import type { AttributeDef, Taxonomy } from "./taxonomy";

/**
 * The list's attribute filters and facets (typed specifications, migration 0037): a filter keeps
 * the products holding one of its values (or a number within its bounds), and a facet counts, for
 * each value the list's products hold, how many would show with every other filter applied, as
 * the other facets count. The kept counts' cells know nothing of attributes, so a list with an
 * attribute filter counts its total and facets from the products (list-reads.ts).
 */

/** The facet of an attribute's filter: its own, so its counts leave it out. */
export type { AttributeFacetName };
export const attributeFacet = (code: string): AttributeFacetName => `attribute:${code}`;

/** The column of a value of the attribute's type. */
const valueColumn = (def: AttributeDef) =>
  def.type === "enum" ? "option_id" : def.type === "number" ? "number_value" : "bool_value";

/** A number written into SQL: only ever one read from a parameter checked as a number. */
const literal = (n: number) => (Number.isFinite(n) ? String(n) : "NULL");

/**
 * An attribute filter as a list filter. Values are written into the SQL as numbers (options by
 * their ids, yes/no as 1/0); a value of no such option, or an attribute the shop does not have,
 * keeps nothing, as an unknown brand does.
 */
export function attributeFilterOf(tax: Taxonomy, f: AttributeFilter): Filter {
  const def = tax.attributes.get(f.code);
  const key = JSON.stringify([f.values, f.gte ?? null, f.lte ?? null]);
  const facet = attributeFacet(f.code);
  if (!def) return { facet, on: () => "0", binds: [], counted: null, key };
  const conditions: string[] = [];
  let oneValue: Filter["oneValue"];
  if (f.values.length) {
    const values =
      def.type === "enum"
        ? def.options.filter((o) => f.values.includes(o.code)).map((o) => String(o.id))
        : def.type === "bool"
          ? f.values.filter((v) => v === "1" || v === "0")
          : f.values.map(Number).filter(Number.isFinite).map(literal);
    conditions.push(values.length ? `${valueColumn(def)} IN (${values.join(", ")})` : "0");
    if (values.length === 1 && f.values.length === 1 && f.gte === undefined && f.lte === undefined)
      oneValue = { attribute: def.id, value: Number(values[0]) };
  }
  if (def.type === "number" && f.gte !== undefined) conditions.push(`number_value >= ${literal(f.gte)}`);
  if (def.type === "number" && f.lte !== undefined) conditions.push(`number_value <= ${literal(f.lte)}`);
  // Bounds on an attribute that is not a number keep nothing: no value of it is within them.
  if (def.type !== "number" && (f.gte !== undefined || f.lte !== undefined)) conditions.push("0");
  const held = `SELECT product_id FROM product_attribute_values WHERE attribute_id = ${def.id} AND ${conditions.join(" AND ")}`;
  return { facet, on: (prefix) => `${prefix}id IN (${held})`, binds: [], counted: null, key, oneValue };
}

/**
 * A list filtered by one value of one attribute, its every other filter one the cells hold
 * ("laptops with 16 GB of RAM"): that value's cells (attribute_value_counts, migration 0039)
 * answer its total and facets, and the pair counts (migration 0042) its other attributes' when
 * its other filters are the category's alone. A product holds a value of an attribute at most
 * once, so each counts it once (list-filters.ts `oneValueList`).
 */
export interface OneValueList {
  attribute: number;
  value: number;
  /** The list's other filters, as the cells hold them. */
  others: CellFilter[];
}

/** The cells of the one value such a list keeps, as facet-cells.ts sums them (CELL_COLUMNS). */
export const oneValueCells = (one: OneValueList) =>
  `SELECT ${CELL_COLUMNS} FROM attribute_value_counts WHERE attribute_id = ${one.attribute} AND value = ${literal(one.value)}`;

/** The attributes a list of this category offers as facets: its own, then its parent's. */
export function facetAttributes(tax: Taxonomy, category: string | undefined): AttributeDef[] {
  const id = category === undefined ? undefined : tax.categoryId.get(category);
  if (id === undefined) return [];
  const parent = tax.parent.get(id) ?? null;
  const codes = [
    ...(tax.categoryAttributes.get(id) ?? []),
    ...(parent === null ? [] : (tax.categoryAttributes.get(parent) ?? [])),
  ];
  return [...new Set(codes)].map((code) => tax.attributes.get(code)!);
}

/** One row of the attribute facets' read: an attribute's value and how many products hold it. */
export interface AttributeCountRow {
  attribute: number;
  value: number;
  n: number;
}

/**
 * The facets' counts, for a list whose every filter the kept cells hold (category, brand, price
 * band, in stock: migration 0039): the category's cells of the offered attributes, summed in D1.
 */
export function attributeCellsStatement(
  db: D1Database,
  defs: readonly AttributeDef[],
  filters: readonly CellFilter[],
): D1PreparedStatement {
  const where = [`attribute_id IN (${defs.map((d) => d.id).join(", ")})`, ...filters.map((f) => f.where)];
  return db.prepare(
    `SELECT attribute_id AS attribute, value, SUM(n) AS n FROM attribute_value_counts
     WHERE ${where.join(" AND ")} GROUP BY 1, 2 HAVING SUM(n) > 0`,
  );
}

/** A value's own column, whichever the attribute's type. */
const VALUE = "COALESCE(v.option_id, v.number_value, v.bool_value)";
/** D1 refuses a compound SELECT of more arms than this. */
const MAX_ARMS = 5;

/**
 * The facets' counts for any other list (an attribute filter, a search, price bounds no band's),
 * as one statement. A list whose other filters the cells hold, with at most four attributes
 * filtered, reads in arms (`attributeArms`). Otherwise the products every filter but the
 * attributes' keeps are gathered once (narrow rows), then each one's values of the offered
 * attributes, an attribute counted among the products its own filter does not decide.
 * `matches`, for a search: its matching products' ids as SQL whose parameters come first.
 */
export function attributeCountsStatement(
  db: D1Database,
  defs: readonly AttributeDef[],
  list: readonly Filter[],
  matches?: { sql: string; binds: unknown[] },
  one: OneValueList | null = null,
): D1PreparedStatement {
  const own = (f: Filter) => f.facet.startsWith("attribute:");
  const others = list.filter((f) => !own(f));
  const attributeFilters = list.filter(own);
  const arms = matches ? null : attributeArms(defs, others, attributeFilters, one);
  if (arms) return db.prepare(arms.sql).bind(...arms.binds);
  const conditions = ["p.active = 1", ...others.map((f) => f.on("p."))];
  if (matches) conditions.push("p.id IN (SELECT id FROM m)");
  const decided = attributeFilters.length
    ? `AND CASE v.attribute_id ${defs
        .map((def) => {
          const kept = attributeFilters.filter((f) => f.facet !== attributeFacet(def.code)).map((f) => f.on("b."));
          return `WHEN ${def.id} THEN ${kept.length ? kept.join(" AND ") : "1"}`;
        })
        .join(" ")} ELSE 0 END`
    : "";
  return db
    .prepare(
      `WITH ${matches ? `m AS MATERIALIZED (${matches.sql}), ` : ""}
         b AS MATERIALIZED (SELECT p.id FROM product_ranks p WHERE ${conditions.join(" AND ")})
       SELECT v.attribute_id AS attribute, ${VALUE} AS value, COUNT(*) AS n
       FROM b CROSS JOIN product_attribute_values v
         ON v.product_id = b.id AND v.attribute_id IN (${defs.map((d) => d.id).join(", ")})
       WHERE 1 ${decided}
       GROUP BY 1, 2`,
    )
    .bind(...(matches?.binds ?? []), ...others.flatMap((f) => f.binds));
}

/**
 * A list's attribute counts in arms, when its other filters are all ones the cells hold: the
 * attributes nobody filters are counted over the list's own products (few, once filtered, found
 * through the filter's index); a filtered attribute, whose own facet leaves its filter out, over
 * the products the other filters keep: from the cells when it is the only attribute filtered,
 * else from its values' rows. At 100,000 products this read about half the rows of counting
 * every attribute over the whole category. Null when the arms do not apply.
 */
function attributeArms(
  defs: readonly AttributeDef[],
  others: readonly Filter[],
  attributeFilters: readonly Filter[],
  one: OneValueList | null,
): { sql: string; binds: unknown[] } | null {
  const cells = others.every((f) => f.counted !== null) ? others.map((f) => f.counted!.where) : null;
  const filtered = defs.filter((d) => attributeFilters.some((f) => f.facet === attributeFacet(d.code)));
  const free = defs.filter((d) => !filtered.includes(d));
  if (!cells || filtered.length === 0 || filtered.length + (free.length ? 1 : 0) > MAX_ARMS) return null;
  const base = ["p.active = 1", ...others.map((f) => f.on("p."))];
  // The free attributes of a list of one value in a category: from the pairs that value is in.
  const paired = one !== null && free.length > 0 && others.every((f) => f.facet === "category");
  // The parameters in the order they stand: the list's products' (the CTE's), then each scanning arm's.
  const otherBinds = others.flatMap((f) => f.binds);
  const binds: unknown[] = free.length && !paired ? [...otherBinds] : [];
  const parts: string[] = [];
  if (paired) {
    parts.push(
      `SELECT other_id AS attribute, other_value AS value, SUM(n) AS n FROM attribute_pair_counts
       WHERE ${[`attribute_id = ${one.attribute}`, `value = ${literal(one.value)}`, ...cells, `other_id IN (${free.map((d) => d.id).join(", ")})`].join(" AND ")}
       GROUP BY 1, 2 HAVING SUM(n) > 0`,
    );
  } else if (free.length) {
    parts.push(
      `SELECT v.attribute_id AS attribute, ${VALUE} AS value, COUNT(*) AS n
       FROM f CROSS JOIN product_attribute_values v ON v.product_id = f.id
       WHERE v.attribute_id IN (${free.map((d) => d.id).join(", ")}) GROUP BY 1, 2`,
    );
  }
  for (const def of filtered) {
    const rest = attributeFilters.filter((f) => f.facet !== attributeFacet(def.code));
    if (rest.length === 0)
      parts.push(
        `SELECT attribute_id, value, SUM(n) FROM attribute_value_counts
         WHERE ${[`attribute_id = ${def.id}`, ...cells].join(" AND ")} GROUP BY 1, 2 HAVING SUM(n) > 0`,
      );
    else {
      parts.push(
        `SELECT v.attribute_id, ${VALUE}, COUNT(*)
         FROM products p CROSS JOIN product_attribute_values v ON v.product_id = p.id AND v.attribute_id = ${def.id}
         WHERE ${[...base, ...rest.map((f) => f.on("p."))].join(" AND ")} GROUP BY 1, 2`,
      );
      binds.push(...otherBinds);
    }
  }
  const full = `f AS MATERIALIZED (SELECT p.id FROM products p WHERE ${[...base, ...attributeFilters.map((f) => f.on("p."))].join(" AND ")})`;
  return { sql: `${free.length && !paired ? `WITH ${full} ` : ""}${parts.join(" UNION ALL ")}`, binds };
}

/** The counts as the contract's facets, each attribute's values in its order (options', numbers', yes before no). */
export function attributeFacetsOf(
  lang: Lang,
  defs: readonly AttributeDef[],
  rows: readonly AttributeCountRow[],
): AttributeFacet[] {
  return defs.map((def) => {
    const counts = new Map<number, number>();
    for (const r of rows) if (Number(r.attribute) === def.id) counts.set(Number(r.value), Number(r.n));
    const values: AttributeFacet["values"] =
      def.type === "enum"
        ? def.options
            .filter((o) => counts.has(o.id))
            .map((o) => ({ value: o.code, label: o.label[lang], count: counts.get(o.id)! }))
        : [...counts]
            .sort(([a], [b]) => (def.type === "bool" ? b - a : a - b))
            .map(([value, count]) => ({ value: String(value), count }));
    return { code: def.code, type: def.type, label: def.label[lang], unit: def.unit?.[lang] ?? null, values };
  });
}
