import type { Lang, StaffCaller } from "../../env";
import { forgetCatalogueVersion } from "../../cache";
import { BackendError } from "../../http";
import { say, type Bilingual } from "../../../../contract/server/i18n";
import { INVALID_INPUT } from "../../../../contract/server/input-messages";
import { forgetSearchSynonyms } from "../catalogue/search";
import { msg } from "../../messages";

/**
 * What the console's writes of the catalogue's taxonomy and content share (taxonomy.ts, content.ts,
 * inventory.ts): refusals in the caller's language, slug clashes as a field error, forgetting
 * this isolate's kept catalogue, and the audit line of a new row.
 */

export type Staff = Pick<StaffCaller, "user_id" | "email">;
export const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

export function refuse(
  lang: Lang,
  status: 409 | 422,
  message: Bilingual,
  field?: string,
  params: Record<string, string | number> = {},
): never {
  const text = say(lang, message, params);
  throw new BackendError(status, field ? say(lang, INVALID_INPUT) : text, field ? { [field]: [text] } : undefined);
}

export const SLUG_TAKEN: Bilingual = msg("console.writes.slugTaken");

/** A UNIQUE slug clash becomes the slug field's message (checked by the database, so no race). */
export async function writing<T>(lang: Lang, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (/UNIQUE constraint failed: \w+\.slug/i.test(String(err))) refuse(lang, 422, SLUG_TAKEN, "slug");
    throw err;
  }
}

/** The isolate that made a change forgets its kept taxonomy at once; others see the version move. */
export function changed(): void {
  forgetSearchSynonyms();
  // This isolate's catalogue answers follow the new version at once, not within the second.
  forgetCatalogueVersion();
}

/**
 * A new row's id is known only inside its batch: the audit line just written (the statement before
 * this one) takes it, found by the unique slug.
 */
export function auditTakesId(db: D1Database, table: "categories" | "brands" | "services" | "pages", slug: string) {
  return db
    .prepare(
      `UPDATE audit_log SET entity_id = (SELECT CAST(id AS TEXT) FROM ${table} WHERE slug = ?) WHERE id = last_insert_rowid()`,
    )
    .bind(slug);
}
