import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { vi } from "vitest";
import { dropAll, schema } from "./d1-schema";

/**
 * Runs before each file of the Workers projects. Files share a runtime per vitest worker
 * (vitest.config.ts, `isolate: false`), and with it the storage, so:
 * - the migrations run once per runtime, on its first file, and the migrated database (with the
 *   rows the migrations insert) is kept in memory;
 * - every later file gets that database back, its KV and R2 emptied, the replica database
 *   (test/support/replica-lag.ts) dropped, and the shop's modules evaluated afresh: each file
 *   starts as it would in a runtime of its own, so a test may count rows or expect empty tables.
 * What stays shared is what a file cannot reach from here: the rate limiters' counts and the
 * Cache API (see `restore`). Tests send fresh network addresses (test/support/accounts.ts
 * `freshIp`), and each file's accounts get ids no earlier file used (`USER_FLOOR`), since limits
 * are also keyed per account (`staff-session:user:<id>`, `checkout:owner:user:<id>`).
 */

type Row = Record<string, unknown>;
interface Table {
  name: string;
  rowid: boolean;
  rows: Row[];
}
interface Snapshot {
  tables: Table[];
  /** Every table the migrations make, derived ones (FTS5 shadows, fts5vocab) included. */
  all: string[];
  triggers: string[];
  /** The schema as sqlite_master writes it, to notice a file that changed it. */
  schema: string;
}

async function snapshot(db: D1Database): Promise<Snapshot> {
  const s = await schema(db);
  const hasRowid = (sql: string | null) => !/WITHOUT\s+ROWID\s*;?\s*$/i.test(sql ?? "");
  const reads = await db.batch<Row>(
    s.tables.map((t) =>
      db.prepare(hasRowid(t.sql) ? `SELECT rowid AS "__rowid", * FROM "${t.name}"` : `SELECT * FROM "${t.name}"`),
    ),
  );
  return {
    tables: s.tables.map((t, i) => ({ name: t.name, rowid: hasRowid(t.sql), rows: reads[i].results })),
    all: s.all,
    triggers: s.triggers.map((t) => t.sql),
    schema: s.signature,
  };
}

/**
 * Puts the database back as the snapshot holds it, in one transaction. The triggers (search
 * index, facet cells) are dropped while the rows go back and made again after, so they neither
 * count the deletes nor index a row twice.
 */
async function restore(db: D1Database, snap: Snapshot, serial: number): Promise<void> {
  await db.prepare(`DROP TRIGGER IF EXISTS ${USER_FLOOR}`).run();
  let now = await schema(db);
  // A file that rebuilt the database under an old schema (the migration tests) left another one:
  // it is made again from the migrations, as a runtime of its own would have it.
  if (now.signature !== snap.schema) {
    await dropAll(db);
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    now = await schema(db);
  }
  const known = new Set(snap.all);
  const writes: D1PreparedStatement[] = [db.prepare("PRAGMA defer_foreign_keys = ON")];
  for (const t of now.triggers) writes.push(db.prepare(`DROP TRIGGER IF EXISTS "${t.name}"`));
  // A table a test made is dropped; the migrations' own are emptied.
  for (const name of now.virtual.filter((n) => !known.has(n)))
    writes.push(db.prepare(`DROP TABLE IF EXISTS "${name}"`));
  for (const name of now.all.filter((n) => !known.has(n) && !now.virtual.some((v) => n.startsWith(`${v}_`))))
    writes.push(db.prepare(`DROP TABLE IF EXISTS "${name}"`));
  for (const table of snap.tables) {
    writes.push(db.prepare(`DELETE FROM "${table.name}"`));
    for (const row of table.rows) {
      const columns = Object.keys(row).filter((k) => k !== "__rowid");
      const names = columns.map((c) => `"${c}"`).join(", ");
      const marks = columns.map(() => "?").join(", ");
      writes.push(
        table.rowid
          ? db
              .prepare(`INSERT INTO "${table.name}" (rowid, ${names}) VALUES (?, ${marks})`)
              .bind(row.__rowid, ...columns.map((c) => row[c]))
          : db.prepare(`INSERT INTO "${table.name}" (${names}) VALUES (${marks})`).bind(...columns.map((c) => row[c])),
      );
    }
  }
  // The Cache API outlives the file and cannot be listed: a catalogue answer an earlier file cached
  // is served only under the version it was built with (worker/backend/cache.ts), so the versions
  // move on to numbers no earlier file reached.
  writes.push(db.prepare("UPDATE versions SET value = value + ?").bind(serial * 1_000_000));
  for (const sql of snap.triggers) writes.push(db.prepare(sql));
  writes.push(...userFloor(db, serial * 100_000));
  await db.batch(writes);
}

const USER_FLOOR = "souq_test_user_floor";

/**
 * `users.id` is an INTEGER PRIMARY KEY without AUTOINCREMENT, so SQLite gives a new account the
 * largest id plus one, and every file would number its accounts 1, 2, 3… again, spending the
 * same per-account limits. A placeholder row at `floor` makes the file's first account
 * `floor + 1`; a trigger deletes the placeholder as that account is made, so no read ever sees
 * it except one before the file's first account.
 */
function userFloor(db: D1Database, floor: number): D1PreparedStatement[] {
  return [
    db
      .prepare("INSERT INTO users (id, name, email, password_hash) VALUES (?, 'floor', ?, '-')")
      .bind(floor, `floor-${floor}@souq.test`),
    db.prepare(
      `CREATE TRIGGER ${USER_FLOOR} AFTER INSERT ON users WHEN NEW.id > ${floor}
       BEGIN DELETE FROM users WHERE id = ${floor}; END`,
    ),
  ];
}

async function emptyKv(kv: KVNamespace): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await kv.list({ cursor });
    await Promise.all(page.keys.map((k) => kv.delete(k.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
}

async function emptyR2(bucket: R2Bucket): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ cursor });
    if (page.objects.length > 0) await bucket.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

const runtime = globalThis as { souqMigrated?: Promise<Snapshot>; souqFiles?: number };
runtime.souqFiles = (runtime.souqFiles ?? 0) + 1;
if (runtime.souqMigrated === undefined) {
  runtime.souqMigrated = applyD1Migrations(env.DB, env.TEST_MIGRATIONS).then(() => snapshot(env.DB));
  await runtime.souqMigrated;
} else {
  await Promise.all([
    runtime.souqMigrated.then((snap) => restore(env.DB, snap, runtime.souqFiles ?? 1)),
    dropAll(env.REPLICA_DB),
    emptyKv(env.KV),
    emptyR2(env.MEDIA),
  ]);
  vi.resetModules();
}
