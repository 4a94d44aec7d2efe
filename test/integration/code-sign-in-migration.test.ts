import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The code sign-in migration on a database made and used under the schema before it: one-time
 * codes are rebuilt to take the `sign_in` purpose, and every code already issued (an account's or
 * an address's) keeps its id, owner, hash and times, with its per-network tries.
 */

// A second, empty database of this file's own (the main one already has every migration).
const db = () => env.REPLICA_DB;
const OLD = (name: string) => name < "0056";

let codesBefore: Record<string, unknown>[];
let triesBefore: Record<string, unknown>[];

beforeAll(async () => {
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => OLD(m.name)),
  );
  const user = (await db()
    .prepare(
      "INSERT INTO users (name, email, password_hash) VALUES ('Old', 'old-sign-in@example.com', 'x') RETURNING id",
    )
    .first<{ id: number }>())!.id;
  await db().batch([
    db()
      .prepare(
        "INSERT INTO otp_codes (id, user_id, purpose, code_hash, attempts, expires_at, consumed_at, created_at) VALUES (51, ?, 'reset', 'aa', 0, 2000, NULL, 1400)",
      )
      .bind(user),
    db().prepare(
      "INSERT INTO otp_codes (id, subject, purpose, code_hash, attempts, expires_at, consumed_at, created_at) VALUES (52, 'ff', 'stock_alert', 'bb', 0, 2100, 1500, 1500)",
    ),
    db().prepare("INSERT INTO otp_tries (code_id, network, attempts) VALUES (51, 'net-a', 2), (52, 'net-b', 4)"),
  ]);
  codesBefore = (await db().prepare("SELECT * FROM otp_codes ORDER BY id").all()).results;
  triesBefore = (await db().prepare("SELECT * FROM otp_tries ORDER BY code_id").all()).results;
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => !OLD(m.name)),
  );
});

describe("one-time codes after the code sign-in migration", () => {
  it("every code keeps its row, and its tries are still counted", async () => {
    expect((await db().prepare("SELECT * FROM otp_codes ORDER BY id").all()).results).toEqual(codesBefore);
    expect((await db().prepare("SELECT * FROM otp_tries ORDER BY code_id").all()).results).toEqual(triesBefore);
  });

  it("takes the sign_in purpose, by an account or an address, and still refuses others", async () => {
    const insert = (user: number | null, subject: string | null, purpose: string) =>
      db()
        .prepare(
          "INSERT INTO otp_codes (user_id, subject, purpose, code_hash, expires_at, created_at) VALUES (?, ?, ?, 'cc', 1, 1)",
        )
        .bind(user, subject, purpose)
        .run();
    const user = (await db().prepare("SELECT id FROM users LIMIT 1").first<number>("id"))!;
    await expect(insert(user, null, "sign_in")).resolves.toBeTruthy();
    await expect(insert(null, "e".repeat(64), "sign_in")).resolves.toBeTruthy();
    await expect(insert(null, "d".repeat(64), "login")).rejects.toThrow(/CHECK/);
    await expect(insert(user, "d".repeat(64), "sign_in")).rejects.toThrow(/CHECK/);
  });
});
