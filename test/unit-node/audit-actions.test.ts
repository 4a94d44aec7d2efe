import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from "../../contract/console";

/** Every source file of the backend and the scripts (the CLI writes audit lines too). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("the audit log's vocabulary", () => {
  it("lists every action code and record kind the backend writes, so the console names each", () => {
    const written = new Set<string>();
    const kinds = new Set<string>();
    for (const file of [...sources("worker/backend"), ...sources("scripts")]) {
      const text = readFileSync(file, "utf8");
      // auditStatement(db, staff, "order.refund", "order", …), auditFor(db, actor, `order.${action}`, …)
      // and the literal inserts: each call's text up to the end of its statement.
      for (const m of text.matchAll(/(?:auditStatement|auditFor)\(|INSERT INTO audit_log/g)) {
        const call = text.slice(m.index, m.index + 500).split(";")[0]!;
        for (const code of call.matchAll(/["'`]([a-z_]+\.[a-z_]+)["'`]/g)) written.add(code[1]!);
        for (const code of call.matchAll(/`([a-z_]+)\.\$\{/g)) written.add(`${code[1]!}.*`);
        for (const kind of call.matchAll(/["'`][a-z_]+\.[a-z_${}.]+["'`],\s*["']([a-z_]+)["']/g)) kinds.add(kind[1]!);
      }
    }
    const listed = new Set<string>(AUDIT_ACTIONS);
    for (const code of written) {
      if (code.endsWith(".*")) {
        const prefix = code.slice(0, -1);
        expect(
          [...listed].some((a) => a.startsWith(prefix)),
          code,
        ).toBe(true);
      } else expect(listed.has(code), code).toBe(true);
    }
    expect(written.size).toBeGreaterThan(30);
    for (const kind of kinds) expect((AUDIT_ENTITIES as readonly string[]).includes(kind), kind).toBe(true);
  });
});
