// A lagging read replica for the Workers-runtime tests: a D1Database-shaped wrapper of
// two REAL local databases, the primary (env.DB) and a replica (env.REPLICA_DB) that holds a copy
// of the primary only as of the last `sync()`. Sessions route their statements as D1's Sessions
// API promises to (https://developers.cloudflare.com/d1/best-practices/read-replication/):
// - every write runs on the primary, and moves the session's bookmark to the primary's;
// - a read in a `first-primary` session runs on the primary;
// - any other read runs on the replica when the replica is at least as new as the session's
//   bookmark (the one it was opened with, or the newest it has seen since), else on the primary
//   (real D1 waits for a replica to catch up or asks the primary: either way, nothing older).
// Bookmarks are the real ones the local primary hands out. Nothing here knows which rows a test
// cares about: a reader without a bookmark simply sees the whole database as of the last sync.
import { newerBookmark, parseBookmark } from "../../contract/bookmark";

export type Copy = "primary" | "replica";

/** One statement as the lagging database served it. */
export interface Served {
  sql: string;
  copy: Copy;
  /** What the session was opened with: a constraint, a bookmark, or "binding" for the bare binding. */
  opened: string;
}

const isRead = (sql: string) => /^\s*(select|with|explain)\b/i.test(sql) && !/\b(insert|update|delete)\b/i.test(sql);

export class LaggingD1 implements D1Database {
  /** The primary's bookmark as of the replica's copy; null before the first sync. */
  replicaAt: string | null = null;
  readonly served: Served[] = [];

  constructor(
    readonly primary: D1Database,
    readonly replica: D1Database,
  ) {}

  /**
   * Brings the replica up to the primary as it is now: one consistent read of every ordinary table
   * (and the FTS5 tables' rows), written over the replica's in one transaction.
   */
  async sync(): Promise<void> {
    const session = this.primary.withSession("first-primary");
    const { results: tables } = await session
      .prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
      )
      .all<{ name: string; sql: string }>();
    const virtual = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
    const copied = tables.filter(
      (t) =>
        !virtual.some((v) => t.name.startsWith(`${v}_`)) &&
        (!virtual.includes(t.name) || /USING fts5\s*\(/i.test(t.sql)),
    );
    // A WITHOUT ROWID table has no rowid to keep: its primary key names its rows.
    const hasRowid = (t: { sql: string }) => !/WITHOUT\s+ROWID\s*;?\s*$/i.test(t.sql);
    const snapshot = await session.batch<Record<string, unknown>>(
      copied.map((t) =>
        session.prepare(hasRowid(t) ? `SELECT rowid AS "__rowid", * FROM "${t.name}"` : `SELECT * FROM "${t.name}"`),
      ),
    );
    this.replicaAt = session.getBookmark();
    const writes: D1PreparedStatement[] = [this.replica.prepare("PRAGMA defer_foreign_keys = ON")];
    copied.forEach((table, i) => {
      writes.push(this.replica.prepare(`DELETE FROM "${table.name}"`));
      for (const row of snapshot[i].results) {
        const columns = Object.keys(row).filter((k) => k !== "__rowid");
        const names = columns.map((c) => `"${c}"`).join(", ");
        const marks = columns.map(() => "?").join(", ");
        writes.push(
          hasRowid(table)
            ? this.replica
                .prepare(`INSERT INTO "${table.name}" (rowid, ${names}) VALUES (?, ${marks})`)
                .bind(row.__rowid, ...columns.map((c) => row[c]))
            : this.replica
                .prepare(`INSERT INTO "${table.name}" (${names}) VALUES (${marks})`)
                .bind(...columns.map((c) => row[c])),
        );
      }
    });
    await this.replica.batch(writes);
  }

  /** The statements served so far whose SQL matches. */
  servedMatching(pattern: RegExp): Served[] {
    return this.served.filter((s) => pattern.test(s.sql));
  }

  prepare(query: string): D1PreparedStatement {
    return new LaggingSession(this, "binding").prepare(query);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return new LaggingSession(this, "binding").batch<T>(statements);
  }

  exec(query: string): Promise<D1ExecResult> {
    this.served.push({ sql: query, copy: "primary", opened: "binding" });
    return this.primary.exec(query);
  }

  withSession(constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint): D1DatabaseSession {
    return new LaggingSession(this, constraintOrBookmark || "first-unconstrained");
  }

  dump(): Promise<ArrayBuffer> {
    throw new Error("dump() is not part of the simulation");
  }
}

class LaggingSession implements D1DatabaseSession {
  /** The newest point of the primary's history this session has seen (or was opened with). */
  private bookmark: string | null;
  private readonly onPrimary: D1DatabaseSession;

  constructor(
    private readonly db: LaggingD1,
    private readonly opened: string,
  ) {
    this.bookmark = parseBookmark(opened);
    this.onPrimary = db.primary.withSession("first-primary");
  }

  /** Where a round trip of these statements runs. */
  private copyFor(sqls: string[]): Copy {
    if (this.opened === "binding" || this.opened === "first-primary") return "primary";
    if (!sqls.every(isRead)) return "primary";
    const fresh = this.db.replicaAt !== null && newerBookmark(this.bookmark, this.db.replicaAt) === this.db.replicaAt;
    return fresh ? "replica" : "primary";
  }

  async run<R>(sqls: string[], go: (target: D1Database | D1DatabaseSession) => Promise<R>): Promise<R> {
    const copy = this.copyFor(sqls);
    for (const sql of sqls) this.db.served.push({ sql, copy, opened: this.opened });
    const result = await go(copy === "primary" ? this.onPrimary : this.db.replica);
    this.bookmark = newerBookmark(this.bookmark, copy === "primary" ? this.onPrimary.getBookmark() : this.db.replicaAt);
    return result;
  }

  prepare(query: string): D1PreparedStatement {
    return new LaggingStatement(this, query, []);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    const own = statements.map((s) => {
      if (!(s instanceof LaggingStatement)) throw new Error("batch() takes statements of this database");
      return s;
    });
    return this.run(
      own.map((s) => s.sql),
      (target) => target.batch<T>(own.map((s) => target.prepare(s.sql).bind(...s.values))),
    );
  }

  getBookmark(): D1SessionBookmark | null {
    return this.bookmark;
  }
}

class LaggingStatement implements D1PreparedStatement {
  constructor(
    private readonly session: LaggingSession,
    readonly sql: string,
    readonly values: unknown[],
  ) {}

  private on<R>(go: (statement: D1PreparedStatement) => Promise<R>): Promise<R> {
    return this.session.run([this.sql], (target) => go(target.prepare(this.sql).bind(...this.values)));
  }

  bind(...values: unknown[]): D1PreparedStatement {
    return new LaggingStatement(this.session, this.sql, values);
  }

  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  first<T>(colName?: string): Promise<T | null> {
    return this.on((s) => (colName === undefined ? s.first<T>() : s.first<T>(colName)));
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.on((s) => s.run<T>());
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.on((s) => s.all<T>());
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<[string[], ...T[]] | T[]> {
    return this.on<[string[], ...T[]] | T[]>((s) =>
      options?.columnNames ? s.raw<T>({ columnNames: true }) : s.raw<T>(),
    );
  }
}
