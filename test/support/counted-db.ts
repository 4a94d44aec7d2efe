/**
 * The database, counting its round trips (a statement run, or a batch) and the statements they
 * carried: for tests that hold a read path to how often it goes to D1 and with how much.
 */
export function counted(db: D1Database): { db: D1Database; trips: () => number; statements: () => number } {
  let trips = 0;
  let statements = 0;
  const statement = (inner: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(inner, {
      get(target, name) {
        const value = Reflect.get(target, name, target) as unknown;
        if (typeof value !== "function") return value;
        if (name === "bind") return (...args: unknown[]) => statement(target.bind(...args));
        if (["all", "first", "run", "raw"].includes(String(name))) {
          trips++;
          statements++;
        }
        return (value as (...args: unknown[]) => unknown).bind(target);
      },
    });
  const proxy = new Proxy(db, {
    get(target, name) {
      if (name === "prepare") return (sql: string) => statement(target.prepare(sql));
      if (name === "batch")
        return (batch: D1PreparedStatement[]) => {
          trips++;
          statements += batch.length;
          return target.batch(batch);
        };
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: proxy, trips: () => trips, statements: () => statements };
}
