import type { SavedComparison } from "../../../../contract/comparison";

/**
 * A signed-in shopper's comparison pick (migration 0038): read, and replaced whole. Scoped by the
 * caller's user id, so no one reads or writes another's.
 */
export async function readComparison(db: D1Database, userId: number): Promise<SavedComparison> {
  const row = await db
    .prepare("SELECT grp, slugs FROM comparisons WHERE user_id = ?")
    .bind(userId)
    .first<{ grp: string; slugs: string }>();
  return row ? { group: row.grp, slugs: JSON.parse(row.slugs) as string[] } : { group: "", slugs: [] };
}

/** Replaces the pick; an empty one is removed. */
export async function saveComparison(db: D1Database, userId: number, pick: SavedComparison): Promise<SavedComparison> {
  if (pick.slugs.length === 0) {
    await db.prepare("DELETE FROM comparisons WHERE user_id = ?").bind(userId).run();
    return { group: "", slugs: [] };
  }
  await db
    .prepare(
      `INSERT INTO comparisons (user_id, grp, slugs) VALUES (?1, ?2, ?3)
       ON CONFLICT (user_id) DO UPDATE SET grp = excluded.grp, slugs = excluded.slugs,
         updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
    )
    .bind(userId, pick.group, JSON.stringify(pick.slugs))
    .run();
  return pick;
}
