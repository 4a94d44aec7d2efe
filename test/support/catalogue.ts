import { seedStatements } from "../../scripts/seed/index.ts";

/**
 * Loads the demo seed (catalogue, content and the other seed parts) into the test D1, with the
 * very statements `npm start` runs. Idempotent: call it from every test file's beforeAll.
 */
export async function seedCatalogue(db: D1Database): Promise<void> {
  const statements = seedStatements().map((sql) => db.prepare(sql));
  // One batch is one transaction: the seed lands whole or not at all.
  await db.batch(statements);
}
