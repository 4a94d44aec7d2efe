import type { StaffNote } from "../../../../contract/console-orders";
import type { StaffCaller } from "../../env";
import { auditStatement } from "./audit-log";

/**
 * Staff's internal notes on an order or a customer (migration 0032): who wrote what and when,
 * shown on the console's order and customer pages and never in any shopper's answer. Every staff
 * role reads and adds them, support included: writing down what a customer said on the phone is
 * support's work, and a note changes nothing else about the order or the customer. A note is
 * never edited or deleted; each one is audited.
 *
 * A subject is `order:<orders.id>`, `user:<users.id>`, or `guest:<email>` (a buyer without an
 * account, known by the email of their orders; the key never leaves the server).
 */

export async function notesOf(db: D1Database, subject: string): Promise<StaffNote[]> {
  const { results } = await db
    .prepare("SELECT id, body, staff_email, created_at FROM staff_notes WHERE subject = ? ORDER BY id")
    .bind(subject)
    .all<StaffNote>();
  return results;
}

/** Adds a note, audited as `note.add` on the record it is about (`entity`, `entityId`), in one batch. */
export async function addNote(
  db: D1Database,
  staff: Pick<StaffCaller, "user_id" | "email">,
  subject: string,
  body: string,
  audit: { entity: string; id: string | number },
): Promise<void> {
  await db.batch([
    db
      .prepare("INSERT INTO staff_notes (subject, body, staff_user_id, staff_email) VALUES (?, ?, ?, ?)")
      .bind(subject, body, staff.user_id, staff.email),
    auditStatement(db, staff, "note.add", audit.entity, audit.id, null, { body }),
  ]);
}
