import type { Lang } from "../../env";
import { notFound, unprocessable } from "../../http";
import { say } from "../../../../contract/server/i18n";
import type { Address, AddressInput } from "../../../../contract/addresses";
import { shortAddressMatches, withBuildingNumber } from "../../../../contract/inputs";
import { msg } from "../../messages";
export type { Address, AddressInput };

/**
 * A signed-in user's delivery addresses (/client/addresses). Every statement is scoped by
 * user_id, so another user's address id is simply not found (404), never readable or writable.
 */
export const MAX_ADDRESSES = 20;

const COLUMNS =
  "id, label, name, phone, city, district, street, building, postal_code, additional_number, short_address, notes, is_default";

type AddressRow = Omit<Address, "is_default"> & { is_default: number };

const toAddress = (row: AddressRow): Address => ({ ...row, is_default: row.is_default === 1 });

const addressNotFound = (lang: Lang) => notFound(say(lang, msg("accounts.addresses.notFound")));

export async function listAddresses(db: D1Database, userId: number): Promise<Address[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM addresses WHERE user_id = ? ORDER BY is_default DESC, id`)
    .bind(userId)
    .all<AddressRow>();
  return results.map(toAddress);
}

export async function getAddress(db: D1Database, userId: number, id: number, lang: Lang): Promise<Address> {
  const row = await db
    .prepare(`SELECT ${COLUMNS} FROM addresses WHERE id = ? AND user_id = ?`)
    .bind(id, userId)
    .first<AddressRow>();
  if (!row) throw addressNotFound(lang);
  return toAddress(row);
}

/** The first address becomes the default; a new default takes the flag from the old one. */
export async function createAddress(db: D1Database, userId: number, input: AddressInput, lang: Lang): Promise<Address> {
  const count = await db
    .prepare("SELECT COUNT(*) AS n FROM addresses WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>();
  const n = count?.n ?? 0;
  if (n >= MAX_ADDRESSES) {
    throw unprocessable(
      {
        body: [say(lang, msg("accounts.addresses.tooMany"), { max: MAX_ADDRESSES })],
      },
      say(lang, msg("accounts.addresses.tooMany"), { max: MAX_ADDRESSES }),
    );
  }
  const isDefault = input.is_default || n === 0;
  const statements: D1PreparedStatement[] = [];
  if (isDefault) statements.push(db.prepare("UPDATE addresses SET is_default = 0 WHERE user_id = ?").bind(userId));
  statements.push(
    db
      .prepare(
        `INSERT INTO addresses (user_id, label, name, phone, city, district, street, building, postal_code,
           additional_number, short_address, notes, is_default)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`,
      )
      .bind(
        userId,
        input.label,
        input.name,
        input.phone,
        input.city,
        input.district,
        input.street,
        input.building,
        input.postal_code,
        input.additional_number ?? null,
        input.short_address ?? null,
        input.notes,
        isDefault ? 1 : 0,
      ),
  );
  const results = await db.batch<AddressRow>(statements);
  return toAddress(results[results.length - 1].results[0]);
}

/** Updates the fields given; an unknown id or someone else's is 404. */
export async function updateAddress(
  db: D1Database,
  userId: number,
  id: number,
  changes: Partial<AddressInput>,
  lang: Lang,
): Promise<Address> {
  const current = await getAddress(db, userId, id, lang);
  // A short address given without a building number gives it, as a new address's does at the edge.
  const next = withBuildingNumber({ ...current, ...changes });
  // Each change alone was checked at the edge; a short address must also name the building kept.
  if (!shortAddressMatches(next)) {
    const message = say(lang, msg("accounts.addresses.shortAddressElsewhere"));
    throw unprocessable({ short_address: [message] }, message);
  }
  // Unsetting the default is done by choosing another one; the flag never disappears from all.
  const isDefault = current.is_default || next.is_default;
  const statements: D1PreparedStatement[] = [];
  if (isDefault && !current.is_default)
    statements.push(db.prepare("UPDATE addresses SET is_default = 0 WHERE user_id = ?").bind(userId));
  statements.push(
    db
      .prepare(
        `UPDATE addresses SET label = ?, name = ?, phone = ?, city = ?, district = ?, street = ?, building = ?, postal_code = ?,
           additional_number = ?, short_address = ?, notes = ?,
           is_default = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
         WHERE id = ? AND user_id = ? RETURNING ${COLUMNS}`,
      )
      .bind(
        next.label,
        next.name,
        next.phone,
        next.city,
        next.district,
        next.street,
        next.building,
        next.postal_code,
        next.additional_number ?? null,
        next.short_address ?? null,
        next.notes,
        isDefault ? 1 : 0,
        id,
        userId,
      ),
  );
  const results = await db.batch<AddressRow>(statements);
  const row = results[results.length - 1].results[0];
  if (!row) throw addressNotFound(lang);
  return toAddress(row);
}

/** Deletes an address; when it was the default, the oldest remaining one takes the flag. */
export async function deleteAddress(db: D1Database, userId: number, id: number, lang: Lang): Promise<void> {
  const [deleted] = await db.batch<{ id: number }>([
    db.prepare("DELETE FROM addresses WHERE id = ? AND user_id = ? RETURNING id").bind(id, userId),
    db
      .prepare(
        `UPDATE addresses SET is_default = 1 WHERE id = (SELECT id FROM addresses WHERE user_id = ?1 ORDER BY id LIMIT 1)
         AND NOT EXISTS (SELECT 1 FROM addresses WHERE user_id = ?1 AND is_default = 1)`,
      )
      .bind(userId),
  ]);
  if (deleted.results.length === 0) throw addressNotFound(lang);
}
