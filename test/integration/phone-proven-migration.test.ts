import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The phone-proof migration on a database made and used under the schema before it: every
 * account keeps its row, no existing phone counts as proven (nothing recorded which codes went to
 * a phone), and a change of phone from then on clears a proof.
 */

// A second, empty database of this file's own (the main one already has every migration).
const db = () => env.REPLICA_DB;
const OLD = (name: string) => name < "0060";

let usersBefore: Record<string, unknown>[];

beforeAll(async () => {
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => OLD(m.name)),
  );
  await db().batch([
    db().prepare(
      "INSERT INTO users (id, name, email, phone, password_hash, verified_at) VALUES (71, 'Old', 'old-phone@example.com', '+966500000071', 'x', '2020-01-01T00:00:00.000Z')",
    ),
    db().prepare(
      "INSERT INTO users (id, name, email, phone, password_hash, message_channel) VALUES (72, 'Wa', NULL, '+966500000072', 'y', 'whatsapp')",
    ),
  ]);
  usersBefore = (await db().prepare("SELECT * FROM users ORDER BY id").all()).results;
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => !OLD(m.name)),
  );
});

describe("accounts after the phone-proof migration", () => {
  it("every account keeps its row, with its phone unproven", async () => {
    const after = (await db().prepare("SELECT * FROM users ORDER BY id").all()).results;
    expect(after).toEqual(usersBefore.map((row) => ({ ...row, phone_verified_at: null })));
  });

  it("a change of phone clears the proof; other changes and a change that proves the new number keep it", async () => {
    const proven = () => db().prepare("SELECT phone_verified_at FROM users WHERE id = 71").first("phone_verified_at");
    await db().prepare("UPDATE users SET phone_verified_at = '2024-05-05T00:00:00.000Z' WHERE id = 71").run();
    await db().prepare("UPDATE users SET name = 'Renamed', phone = phone WHERE id = 71").run();
    expect(await proven()).toBe("2024-05-05T00:00:00.000Z");
    await db().prepare("UPDATE users SET phone = '+966500000073' WHERE id = 71").run();
    expect(await proven()).toBeNull();
    await db()
      .prepare("UPDATE users SET phone = '+966500000074', phone_verified_at = '2024-06-06T00:00:00.000Z' WHERE id = 71")
      .run();
    expect(await proven()).toBe("2024-06-06T00:00:00.000Z");
    // The WhatsApp choice still goes back to SMS with a new number, beside the proof.
    await db().prepare("UPDATE users SET phone = '+966500000075' WHERE id = 72").run();
    expect(await db().prepare("SELECT message_channel FROM users WHERE id = 72").first("message_channel")).toBe("sms");
  });
});
