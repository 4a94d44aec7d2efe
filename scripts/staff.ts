// Staff of the operator console, from the command line:
//
//   npm run staff -- add <email> <owner|manager|support> [<email> <role> ...] [--remote] [--persist-to <dir>]
//   npm run staff -- remove <email> [--remote]
//   npm run staff -- list [--remote]
//
// The account must exist (register in the shop first): the console signs staff in with their own
// account plus a one-time code. Locally it writes the D1 of `npm start` (.wrangler/state); with
// --remote, the deployed database. Each change is written to the audit log as done by "cli".
// Several accounts may be added in one run (pairs of email and role): one wrangler run, whose
// start costs far more than the statements. The SQL lives in scripts/lib/staff-sql.ts. Unlike the console's Staff page, this does not ask that the account has
// verified its email: whoever runs it holds the database, and the journeys' accounts are fresh.
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EMAIL, staffAddSql, staffRemoveSql, type Role } from "./lib/staff-sql.ts";
import { wrangler } from "./lib/worker.ts";

function execute(
  target: string[],
  sql: string,
): { results?: Record<string, unknown>[]; meta?: { changes?: number } }[] {
  const out = wrangler(["d1", "execute", "DB", ...target, "--command", sql, "--json", "-c", "wrangler.toml"]);
  const start = out.search(/^\[/m);
  return JSON.parse(start >= 0 ? out.slice(start) : out);
}

function usage(message?: string): never {
  if (message) console.error(message);
  console.error("Usage: npm run staff -- add <email> <owner|manager|support> | remove <email> | list  [--remote]");
  process.exit(1);
}

const args = process.argv.slice(2);
const remote = args.includes("--remote");
const at = args.indexOf("--persist-to");
const persistDir = at >= 0 ? args[at + 1] : join(fileURLToPath(new URL("..", import.meta.url)), ".wrangler", "state");
const target = remote ? ["--remote"] : ["--local", "--persist-to", persistDir];
const [command, email, role, ...more] = args.filter((a, i) => !a.startsWith("--") && (at < 0 || i !== at + 1));

if (command === "list") {
  const [rows] = execute(
    target,
    "SELECT u.email, s.role, s.created_at FROM staff s JOIN users u ON u.id = s.user_id ORDER BY s.created_at",
  );
  console.table(rows?.results ?? []);
  process.exit(0);
}
if (!email || !EMAIL.test(email)) usage("An email address is needed.");

if (command === "add") {
  const pairs: [string, string][] = [[email, role]];
  if (more.length % 2 !== 0) usage("Each email address needs its role.");
  for (let i = 0; i < more.length; i += 2) pairs.push([more[i], more[i + 1]]);
  // staffAddSql checks each email and role, and says which one it refuses.
  let sql = "";
  try {
    sql = staffAddSql(pairs as [string, Role][]);
  } catch (error) {
    usage((error as Error).message);
  }
  const results = execute(target, sql);
  // Three statement results per account: the staff row's RETURNING, the pending email dropped, the audit line.
  let missing = 0;
  pairs.forEach(([e, r], i) => {
    if (results[3 * i]?.results?.length)
      console.log(`${e} is now ${r}. They open the console at /en/admin (or /ar/admin) after signing in.`);
    else {
      missing += 1;
      console.error(`No account uses ${e}. Register it in the shop first (/en/auth/register), then run this again.`);
    }
  });
  if (missing) process.exit(1);
} else if (command === "remove") {
  const results = execute(target, staffRemoveSql(email));
  if (!results[2]?.results?.length) {
    console.error(`${email} is not on the staff.`);
    process.exit(1);
  }
  console.log(`${email} is no longer on the staff.`);
} else usage();
