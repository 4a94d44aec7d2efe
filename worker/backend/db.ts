import type { MiddlewareHandler } from "hono";
import { BOOKMARK_HEADER, parseBookmark } from "../../contract/bookmark";
import type { BackendEnv, Env } from "./env";

/**
 * Which copy of D1 each backend request reads (DESIGN §10 "Reads near the shopper"), in one place.
 *
 * Every request runs in a D1 session (the Sessions API), put on the context as `c.env.DB` by
 * `databaseSession()`, so routes and services keep calling `c.env.DB` and never choose for themselves:
 * - GET and HEAD of the catalogue, content, cart, addresses, account and orders: a
 *   `first-unconstrained` session, or one opened with the caller's bookmark (`x-d1-bookmark`,
 *   contract/bookmark.ts). A nearby replica may answer, but never one older than the caller's own
 *   last write.
 * - Every write (POST, PUT, PATCH, DELETE), and all of checkout, payments, promo codes, the console
 *   and the development routes, reads too: `first-primary`. Stock is reserved and released there,
 *   and staff see the truth. The cron and the queue consumers (worker/backend/jobs.ts) use the plain
 *   binding, which is the primary.
 * After a request wrote, its answer carries the session's bookmark in `x-d1-bookmark`; the edge
 * keeps it with the shopper (worker/middleware/bookmark.ts) and sends it on their next calls.
 *
 * PRIMARY_LATENCY_MS (the latency model): when set, every statement the primary serves
 * waits that long first; replica reads do not. See `TrackedDatabase`.
 */

/** The copy a request's reads go to. */
export type DbRoute = "replica" | "primary";

/** Paths (below the backend's base) whose reads stay on the primary too. */
const PRIMARY_PATHS = ["/checkout", "/payments", "/promo-code", "/admin", "/dev"];

/** The route of a backend request, by method and path (with or without the `/backend` mount). */
export function routeOf(method: string, path: string): DbRoute {
  if (method !== "GET" && method !== "HEAD") return "primary";
  const below = path.replace(/^\/backend(?=\/|$)/, "") || "/";
  return PRIMARY_PATHS.some((p) => below === p || below.startsWith(`${p}/`)) ? "primary" : "replica";
}

/** Reads: SELECT, EXPLAIN, and a WITH whose body changes nothing. Anything else counts as a write. */
const READ_START = /^\s*(?:(?:--[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)*(select|with|explain)\b/i;
const CHANGE_WORD = /\b(insert|update|delete|replace|create|drop|alter)\b/i;

export function isReadOnlySql(sql: string): boolean {
  const start = READ_START.exec(sql)?.[1]?.toLowerCase();
  if (!start) return false;
  return start !== "with" || !CHANGE_WORD.test(sql);
}

/** PRIMARY_LATENCY_MS as a number of milliseconds: 0 (off) unless a whole number up to 10 s. */
export function primaryLatencyMs(env: Pick<Env, "PRIMARY_LATENCY_MS">): number {
  const raw = env.PRIMARY_LATENCY_MS?.trim() ?? "";
  return /^\d{1,5}$/.test(raw) ? Math.min(Number(raw), 10_000) : 0;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * What the statements of one handle share: the injected latency, whether its reads are served by
 * the primary, and whether anything was written through it.
 */
class Link {
  wrote = false;
  constructor(
    readonly latencyMs: number,
    readonly readsOnPrimary: boolean,
  ) {}

  /** Runs one round trip (a statement, a batch, an exec) of these statements. */
  async serve<R>(sqls: readonly string[], run: () => Promise<R>): Promise<R> {
    const writes = sqls.some((sql) => !isReadOnlySql(sql));
    if (writes) this.wrote = true;
    // Writes always go to the primary; reads only outside an unconstrained session. One wait per
    // round trip: a batch is one trip to the database, as in D1.
    if (this.latencyMs > 0 && (writes || this.readsOnPrimary)) await wait(this.latencyMs);
    return run();
  }
}

/** A prepared statement that knows its SQL and its handle, so running it goes through `Link.serve`. */
class TrackedStatement implements D1PreparedStatement {
  constructor(
    readonly inner: D1PreparedStatement,
    readonly sql: string,
    private readonly link: Link,
  ) {}

  bind(...values: unknown[]): D1PreparedStatement {
    return new TrackedStatement(this.inner.bind(...values), this.sql, this.link);
  }

  first<T = unknown>(colName: string): Promise<T | null>;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  first<T>(colName?: string): Promise<T | null> {
    return this.link.serve([this.sql], () =>
      colName === undefined ? this.inner.first<T>() : this.inner.first<T>(colName),
    );
  }

  run<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.link.serve([this.sql], () => this.inner.run<T>());
  }

  all<T = Record<string, unknown>>(): Promise<D1Result<T>> {
    return this.link.serve([this.sql], () => this.inner.all<T>());
  }

  raw<T = unknown[]>(options: { columnNames: true }): Promise<[string[], ...T[]]>;
  raw<T = unknown[]>(options?: { columnNames?: false }): Promise<T[]>;
  raw<T = unknown[]>(options?: { columnNames?: boolean }): Promise<[string[], ...T[]] | T[]> {
    return this.link.serve<[string[], ...T[]] | T[]>([this.sql], () =>
      options?.columnNames ? this.inner.raw<T>({ columnNames: true }) : this.inner.raw<T>(),
    );
  }
}

const unwrap = (statement: D1PreparedStatement) =>
  statement instanceof TrackedStatement ? statement.inner : statement;
const sqlOf = (statement: D1PreparedStatement) =>
  // A statement not prepared through a tracked handle: its SQL is unknown, so it counts as a write.
  statement instanceof TrackedStatement ? statement.sql : "";

/** A D1 session seen through a `Link`. */
class TrackedSession implements D1DatabaseSession {
  constructor(
    readonly inner: D1DatabaseSession,
    readonly link: Link,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return new TrackedStatement(this.inner.prepare(query), query, this.link);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.link.serve(statements.map(sqlOf), () => this.inner.batch<T>(statements.map(unwrap)));
  }

  getBookmark(): D1SessionBookmark | null {
    return this.inner.getBookmark();
  }
}

/**
 * The real binding with PRIMARY_LATENCY_MS applied: on the bare binding every statement is the
 * primary's (delayed); a session opened from it is delayed on its writes, and on its reads too
 * when it is `first-primary`. A session opened unconstrained or with a bookmark reads from a replica
 * in this model, undelayed.
 */
export class TrackedDatabase implements D1Database {
  private readonly link: Link;
  constructor(
    readonly inner: D1Database,
    readonly latencyMs: number,
  ) {
    this.link = new Link(latencyMs, true);
  }

  prepare(query: string): D1PreparedStatement {
    return new TrackedStatement(this.inner.prepare(query), query, this.link);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.link.serve(statements.map(sqlOf), () => this.inner.batch<T>(statements.map(unwrap)));
  }

  exec(query: string): Promise<D1ExecResult> {
    return this.link.serve([""], () => this.inner.exec(query));
  }

  withSession(constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint): TrackedSession {
    return new TrackedSession(
      this.inner.withSession(constraintOrBookmark),
      new Link(this.latencyMs, constraintOrBookmark === "first-primary"),
    );
  }

  /** @deprecated D1's own: only for alpha databases. */
  dump(): Promise<ArrayBuffer> {
    return this.inner.dump();
  }
}

/**
 * One request's handle: a `D1Database` whose statements and batches run in the request's session.
 * `exec` and `withSession` go to the binding itself (the primary), as nothing here has a session
 * form of them.
 */
export class RequestDatabase implements D1Database {
  constructor(
    readonly binding: TrackedDatabase,
    readonly session: TrackedSession,
  ) {}

  prepare(query: string): D1PreparedStatement {
    return this.session.prepare(query);
  }

  batch<T = unknown>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
    return this.session.batch<T>(statements);
  }

  exec(query: string): Promise<D1ExecResult> {
    this.session.link.wrote = true;
    return this.binding.exec(query);
  }

  withSession(constraintOrBookmark?: D1SessionBookmark | D1SessionConstraint): D1DatabaseSession {
    return this.binding.withSession(constraintOrBookmark);
  }

  /** @deprecated D1's own: only for alpha databases. */
  dump(): Promise<ArrayBuffer> {
    return this.binding.dump();
  }

  /** Whether anything was written in this request's session. */
  get wrote(): boolean {
    return this.session.link.wrote;
  }

  getBookmark(): D1SessionBookmark | null {
    return this.session.getBookmark();
  }
}

/** The real binding under any wrapping of ours, so a nested call never wraps (or delays) twice. */
function realBinding(db: D1Database): D1Database {
  if (db instanceof RequestDatabase) return db.binding.inner;
  if (db instanceof TrackedDatabase) return db.inner;
  return db;
}

/** The binding the cron and the queue consumers use: the primary, with PRIMARY_LATENCY_MS applied. */
export function primaryEnv<E extends Env>(env: E): E {
  const latency = primaryLatencyMs(env);
  return latency > 0 ? { ...env, DB: new TrackedDatabase(realBinding(env.DB), latency) } : env;
}

/** Opens a request's session on the binding: a constraint, or the caller's bookmark. */
export function requestDatabase(
  env: Env,
  constraintOrBookmark: D1SessionBookmark | D1SessionConstraint,
): RequestDatabase {
  const binding = new TrackedDatabase(realBinding(env.DB), primaryLatencyMs(env));
  return new RequestDatabase(binding, binding.withSession(constraintOrBookmark));
}

/**
 * The backend's middleware: opens this request's session (its route, and for replica reads the
 * caller's bookmark if well-formed; a malformed one is ignored) and puts it on the context as
 * `c.env.DB`. After a write, the answer carries the session's bookmark.
 */
export function databaseSession(): MiddlewareHandler<BackendEnv> {
  return async (c, next) => {
    const route = routeOf(c.req.method, c.req.path);
    const bookmark = route === "replica" ? parseBookmark(c.req.header(BOOKMARK_HEADER)) : null;
    const db = requestDatabase(c.env, route === "primary" ? "first-primary" : (bookmark ?? "first-unconstrained"));
    c.env = { ...c.env, DB: db };
    await next();
    const after = db.wrote ? db.getBookmark() : null;
    // (c.header copies an answer whose headers are frozen, such as a copy from the Cache API.)
    if (after) c.header(BOOKMARK_HEADER, after);
    else if (c.res.headers.has(BOOKMARK_HEADER)) c.header(BOOKMARK_HEADER, undefined);
  };
}
