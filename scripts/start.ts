// `npm start`: build, apply local D1 migrations, seed an empty database, and serve the shop on
// http://localhost:8787 (PORT overrides), with local KV and D1 on disk under .wrangler/state.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { baseEnv, prepareDatabase, root, startWorker } from "./lib/worker.ts";

const port = Number(process.env.PORT ?? 8787);
const persistDir = join(root, ".wrangler", "state");

if (!process.argv.includes("--no-build")) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, env: baseEnv, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

await prepareDatabase(persistDir);

// Development secrets: generated once per checkout, kept out of git under .wrangler/.
mkdirSync(join(root, ".wrangler"), { recursive: true });
const secretsFile = join(root, ".wrangler", "dev-secrets.json");
if (!existsSync(secretsFile)) {
  const random = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  writeFileSync(secretsFile, JSON.stringify({ AUTH_PEPPER: random(), PAYMENT_SECRET: random() }, null, 2));
}
const secrets = JSON.parse(readFileSync(secretsFile, "utf8"));

const worker = await startWorker({
  port,
  persistDir,
  // Development: PUBLIC_ORIGIN may stay empty, and the links the shop hands out (order messages,
  // payment return addresses) use this worker's own URL, http://localhost:PORT.
  // WhatsApp is on against its offline stand-in (README, "WhatsApp" in docs/OPERATIONS.md).
  vars: { ENVIRONMENT: "development", WHATSAPP: "cloud", ...secrets },
  stdio: "inherit",
});
console.log(`\nThe shop is running on http://localhost:${port} (English: /en, Arabic: /ar). Ctrl+C stops it.\n`);
// wrangler dev does not fire cron triggers by itself: the shop's minute (releasing unpaid holds,
// sending order messages left behind, expiring stale carts) is driven from here, as Cloudflare would.
const cron = setInterval(() => {
  fetch(`${worker.url}/cdn-cgi/local/scheduled?cron=${encodeURIComponent("* * * * *")}`).catch(() => {});
}, 60_000);
const stop = () => {
  clearInterval(cron);
  worker.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
