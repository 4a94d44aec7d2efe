/**
 * A D1 database's schema as the Workers test projects read it, and the drop of all of it: shared
 * by the per-file reset (apply-migrations.ts) and the migration tests that start from an empty
 * database. No side effects: a test file may import it.
 */

const MASTER =
  "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'";

export async function schema(db: D1Database) {
  const { results } = await db.prepare(MASTER).all<{ type: string; name: string; sql: string | null }>();
  const signature = results
    .map((r) => `${r.type} ${r.name} ${r.sql}`)
    .sort()
    .join("\n");
  const tables = results.filter((r) => r.type === "table" && r.sql);
  const virtual = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? "")).map((t) => t.name);
  return {
    // An FTS5 table holds its rows itself; its shadow tables and fts5vocab views are derived.
    tables: tables.filter(
      (t) =>
        !virtual.some((v) => t.name.startsWith(`${v}_`)) &&
        (!virtual.includes(t.name) || /USING fts5\s*\(/i.test(t.sql ?? "")),
    ),
    virtual,
    triggers: results.filter((r) => r.type === "trigger" && r.sql).map((r) => ({ name: r.name, sql: r.sql ?? "" })),
    all: tables.map((t) => t.name),
    signature,
  };
}

/**
 * Drops every table of a database (the replica starts empty). The triggers go first: a table's
 * drop deletes its rows, which would fire them. Then table by table, children before the parents
 * their foreign keys name, so as many passes as the longest chain of references.
 */
export async function dropAll(db: D1Database): Promise<void> {
  let s = await schema(db);
  if (s.all.length === 0) return;
  await db.batch(s.triggers.map((t) => db.prepare(`DROP TRIGGER IF EXISTS "${t.name}"`)));
  for (let pass = 0; s.all.length > 0; pass++) {
    let last: unknown;
    for (const name of [...s.virtual, ...s.all])
      await db
        .prepare(`DROP TABLE IF EXISTS "${name}"`)
        .run()
        .catch((error: unknown) => (last = error));
    s = await schema(db);
    if (pass > 20 && s.all.length > 0) throw last;
  }
  await db.prepare("DROP TABLE IF EXISTS d1_migrations").run();
}
