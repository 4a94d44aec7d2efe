// The SQL that makes accounts staff, shared by `npm run staff -- add` (through `wrangler d1
// execute`) and the browser tests (on the local D1 file directly, test/support/local-d1.ts).

export const ROLES = ["owner", "manager", "support"] as const;
export type Role = (typeof ROLES)[number];
export const EMAIL = /^[^\s@'"\\]+@[^\s@'"\\]+\.[^\s@'"\\]+$/;

/** A SQL string literal; the inputs were already checked against EMAIL and ROLES. */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Three statements per account: the staff row (RETURNING its user id, none when no account uses
 * the email), the pending email change dropped, the audit line by "cli". The seat is pinned to
 * the account's email as it is now (the console code goes only there), and adding again re-pins it.
 */
export function staffAddSql(pairs: readonly (readonly [email: string, role: Role])[]): string {
  for (const [email, role] of pairs) {
    if (!EMAIL.test(email)) throw new Error(`Not an email address: ${email}.`);
    if (!ROLES.includes(role)) throw new Error(`The role must be one of: ${ROLES.join(", ")}.`);
  }
  return pairs
    .map(
      ([e, r]) =>
        `INSERT INTO staff (user_id, role, email) SELECT id, ${literal(r)}, email FROM users WHERE email = ${literal(e)} COLLATE NOCASE
       ON CONFLICT (user_id) DO UPDATE SET role = excluded.role, email = excluded.email, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
       RETURNING user_id;
     UPDATE users SET pending_email = NULL WHERE email = ${literal(e)} COLLATE NOCASE;
     INSERT INTO audit_log (staff_email, action, entity, entity_id, after_json)
       SELECT 'cli', 'staff.add', 'staff', CAST(id AS TEXT), json_object('email', email, 'role', ${literal(r)})
       FROM users WHERE email = ${literal(e)} COLLATE NOCASE;`,
    )
    .join("\n");
}

/** Removes a seat and its sessions, with the audit line first (it reads the seat). */
export function staffRemoveSql(email: string): string {
  if (!EMAIL.test(email)) throw new Error(`Not an email address: ${email}.`);
  return `INSERT INTO audit_log (staff_email, action, entity, entity_id, before_json)
       SELECT 'cli', 'staff.remove', 'staff', CAST(s.user_id AS TEXT), json_object('email', u.email, 'role', s.role)
       FROM staff s JOIN users u ON u.id = s.user_id WHERE u.email = ${literal(email)} COLLATE NOCASE;
     DELETE FROM staff_sessions WHERE user_id = (SELECT id FROM users WHERE email = ${literal(email)} COLLATE NOCASE);
     DELETE FROM staff WHERE user_id = (SELECT id FROM users WHERE email = ${literal(email)} COLLATE NOCASE) RETURNING user_id;`;
}
