// A signed-in shopper's comparison pick, kept with the account so it follows them to another
// device. Part of the contract between the storefront and the backend (DESIGN §6, §10): both
// sides import it, and it imports neither (test/node/boundaries.test.ts).
import * as v from "valibot";
import type { InputMessages } from "./inputs";

/** GET (the pick, or an empty one) and PUT (replace it; no products clears it). */
export const COMPARISON_PATH = "/client/comparison";

/** At most this many products in one comparison. */
export const MAX_COMPARED = 4;

/** The pick: the top-level category its products belong to, and their slugs in order. */
export interface SavedComparison {
  group: string;
  slugs: string[];
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,119}$/;

/** PUT COMPARISON_PATH's body. */
export function comparisonInput(m: InputMessages) {
  return v.object({
    group: v.pipe(v.string(m.required("group")), v.regex(/^$|^[a-z0-9][a-z0-9-]{0,119}$/, m.invalid("group"))),
    slugs: v.pipe(
      v.array(v.pipe(v.string(m.invalid("slugs")), v.regex(SLUG, m.invalid("slugs"))), m.required("slugs")),
      v.maxLength(MAX_COMPARED, m.invalid("slugs")),
      v.check((s) => new Set(s).size === s.length, m.invalid("slugs")),
    ),
  });
}
