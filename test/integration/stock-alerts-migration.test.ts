import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The stock-alerts migration on a database made and used under the schema before it: one-time
 * codes are rebuilt to be owned by an account or by a phone's keyed hash, and every code already
 * issued keeps its id, account, hash and times, with its per-network tries (which the rebuild's
 * cascade would otherwise empty).
 */

// A second, empty database of this file's own (the main one already has every migration).
const db = () => env.REPLICA_DB;
const OLD = (name: string) => name < "0053";

let codesBefore: Record<string, unknown>[];
let triesBefore: Record<string, unknown>[];

beforeAll(async () => {
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => OLD(m.name)),
  );
  const user = (await db()
    .prepare("INSERT INTO users (name, email, password_hash) VALUES ('Old', 'old-otp@example.com', 'x') RETURNING id")
    .first<{ id: number }>())!.id;
  await db().batch([
    db()
      .prepare(
        "INSERT INTO otp_codes (id, user_id, purpose, code_hash, attempts, expires_at, consumed_at, created_at) VALUES (41, ?, 'verify', 'aa', 0, 2000, NULL, 1400)",
      )
      .bind(user),
    db()
      .prepare(
        "INSERT INTO otp_codes (id, user_id, purpose, code_hash, attempts, expires_at, consumed_at, created_at) VALUES (42, ?, 'staff', 'bb', 0, 2100, 1500, 1500)",
      )
      .bind(user),
    db().prepare("INSERT INTO otp_tries (code_id, network, attempts) VALUES (41, 'net-a', 3), (42, 'net-b', 1)"),
  ]);
  codesBefore = (await db().prepare("SELECT * FROM otp_codes ORDER BY id").all()).results;
  triesBefore = (await db().prepare("SELECT * FROM otp_tries ORDER BY code_id").all()).results;
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => !OLD(m.name)),
  );
});

describe("one-time codes after the stock-alerts migration", () => {
  it("every code keeps its row, and its tries are still counted", async () => {
    const after = (await db().prepare("SELECT * FROM otp_codes ORDER BY id").all()).results;
    expect(after).toEqual(codesBefore.map((row) => ({ ...row, subject: null })));
    expect((await db().prepare("SELECT * FROM otp_tries ORDER BY code_id").all()).results).toEqual(triesBefore);
  });

  it("a code is owned by an account or by a subject, never both or neither; the new purpose is taken", async () => {
    const insert = (user: number | null, subject: string | null, purpose = "stock_alert") =>
      db()
        .prepare(
          "INSERT INTO otp_codes (user_id, subject, purpose, code_hash, expires_at, created_at) VALUES (?, ?, ?, 'cc', 1, 1)",
        )
        .bind(user, subject, purpose)
        .run();
    await expect(insert(null, "f".repeat(64))).resolves.toBeTruthy();
    await expect(insert(null, null)).rejects.toThrow(/CHECK/);
    const user = (await db().prepare("SELECT id FROM users LIMIT 1").first<number>("id"))!;
    await expect(insert(user, "f".repeat(64))).rejects.toThrow(/CHECK/);
    await expect(insert(null, "e".repeat(64), "other")).rejects.toThrow(/CHECK/);
  });
});
