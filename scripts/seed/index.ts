// Every statement of the demo seed, in order. Used by scripts/seed.ts (wrangler d1 execute, local
// or --remote) and by test/support/catalogue.ts (D1 in the Workers test runtime). Each part is
// idempotent (INSERT OR IGNORE / insert-when-missing), so running the whole seed twice is safe.
import { attributeStatements } from "./attributes.ts";
import { catalogueStatements, CATEGORIES, seedProducts } from "./catalogue.ts";
import { contentStatements } from "./content.ts";
import { promoStatements } from "./promos.ts";
import { variantStatements } from "./variants.ts";
import { variantAttributeSql } from "../../worker/backend/services/catalogue/variant-attributes.ts";
import { CATALOGUE_BUMP } from "./sql.ts";
// Further seed parts (e.g. promo codes from ./promos.ts) are imported here and added below.

export function seedStatements(): string[] {
  return [
    ...catalogueStatements(),
    ...attributeStatements(
      new Map(CATEGORIES.map((c) => [c.slug, c.id])),
      new Map(seedProducts().map((p) => [p.slug, p.id])),
    ),
    ...variantStatements(seedProducts()),
    // The typed values the variants give (storage), as the console writes them.
    ...variantAttributeSql("SELECT id FROM products WHERE variant_count > 1"),
    ...contentStatements(),
    ...promoStatements(),
    // Further parts go here, e.g. `...promoStatements(),`.
    CATALOGUE_BUMP,
  ];
}
