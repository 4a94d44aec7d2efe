// The Worker the `workers` test project runs: the backend, the own-server API and the manifests, without the
// React build (which only exists after `vite build`; the built worker is tested in test/http).
import { Hono } from "hono";
import { apiApp } from "../../worker/api";
import { backendApp, queue, scheduled } from "../../worker/backend";
import type { HonoEnv } from "../../worker/env";
import { manifestApp } from "../../worker/manifest";

const app = new Hono<HonoEnv>();
app.route("/backend", backendApp);
app.route("/api", apiApp);
// The web app manifests, which carry the store's name from its settings.
app.route("/", manifestApp);
// The queue consumers and the cron as the shop's worker exports them.
export default { fetch: app.fetch, queue, scheduled };
