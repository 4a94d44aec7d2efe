import type { ProductOption, ProductVariant } from "../../contract/catalogue";

/**
 * The variant a product page shows and the option pickers around it. The choice lives in the URL
 * (`?colour=blue&storage=256gb`, option codes and value codes), so a chosen variant is a link a
 * shopper can share and the server renders; every value of the pickers is itself a link to the
 * variant it leads to, so the pickers work without JavaScript.
 */

/** The query of a variant's page: "?colour=blue&storage=256gb", or "" without options. */
export function variantQuery(options: Record<string, string> | undefined): string {
  const entries = Object.entries(options ?? {});
  return entries.length ? `?${new URLSearchParams(entries).toString()}` : "";
}

/** How many of `options`' values `variant` shares with `wanted`. */
const agreement = (variant: ProductVariant, wanted: Record<string, string>) =>
  Object.entries(wanted).filter(([code, value]) => variant.options[code] === value).length;

/**
 * The variant a URL asks for: the one with every value it names; else, of the variants agreeing
 * with most of what it names (a shared link to a combination since removed, or none named), the
 * first in stock, then the first. Null only for a product answered without variants.
 */
export function chooseVariant<V extends ProductVariant>(
  options: readonly ProductOption[],
  variants: readonly V[],
  params: URLSearchParams,
): V | null {
  if (!variants.length) return null;
  const wanted: Record<string, string> = {};
  for (const option of options) {
    const value = params.get(option.code);
    if (value !== null && option.values.some((v) => v.code === value)) wanted[option.code] = value;
  }
  const exact = variants.find((v) =>
    options.every((o) => wanted[o.code] !== undefined && v.options[o.code] === wanted[o.code]),
  );
  if (exact) return exact;
  const best = Math.max(...variants.map((v) => agreement(v, wanted)));
  const closest = variants.filter((v) => agreement(v, wanted) === best);
  return closest.find((v) => v.in_stock) ?? closest[0];
}

/** One value of a picker: where it leads and what choosing it means. */
export interface PickerValue {
  code: string;
  name: string;
  swatch: string | null;
  /** This value is the chosen variant's. */
  selected: boolean;
  /** The variant choosing it leads to: with the other chosen values when that exists, else the closest. */
  target: ProductVariant;
  /** No variant combines this value with the other chosen values. */
  unavailable: boolean;
  /** That combination exists but is sold out. */
  soldOut: boolean;
}

export interface Picker {
  code: string;
  name: string;
  kind: ProductOption["kind"];
  /** The chosen value's name, shown beside the option's ("Colour: Blue"). */
  chosen: string;
  values: PickerValue[];
}

/** The pickers for `chosen`: each option's values, each with the variant it leads to. */
export function pickersFor(
  options: readonly ProductOption[],
  variants: readonly ProductVariant[],
  chosen: ProductVariant,
): Picker[] {
  return options.map((option) => ({
    code: option.code,
    name: option.name,
    kind: option.kind,
    chosen: option.values.find((v) => v.code === chosen.options[option.code])?.name ?? "",
    values: option.values.map((value) => {
      const wanted = { ...chosen.options, [option.code]: value.code };
      const combination = variants.find((v) => options.every((o) => v.options[o.code] === wanted[o.code]));
      const withValue = variants.filter((v) => v.options[option.code] === value.code);
      const closest = [...withValue].sort(
        (a, b) =>
          agreement(b, chosen.options) - agreement(a, chosen.options) || Number(b.in_stock) - Number(a.in_stock),
      )[0];
      return {
        code: value.code,
        name: value.name,
        swatch: value.swatch,
        selected: chosen.options[option.code] === value.code,
        target: combination ?? closest ?? chosen,
        unavailable: !combination,
        soldOut: combination !== undefined && !combination.in_stock,
      };
    }),
  }));
}
