// The local D1 database a built worker serves (`wrangler dev --persist-to`), opened as the SQLite
// file it is. SQLite locks the file between the two processes (the database runs in WAL mode), so
// this reads and writes beside the running worker as `wrangler d1 execute --local` would, without
// starting a second runtime for it: a `wrangler d1 execute` took 2 to 9 s a call on this machine.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/** Runs `work` on the D1 database under `persistDir`, then closes it. */
export function withLocalD1<T>(persistDir: string, work: (db: DatabaseSync) => T): T {
  const dir = join(persistDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(dir).find((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (!file) throw new Error(`no D1 database under ${dir}`);
  const db = new DatabaseSync(join(dir, file), { timeout: 5_000 });
  try {
    return work(db);
  } finally {
    db.close();
  }
}
