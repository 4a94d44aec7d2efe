import type { ConsoleDashboard } from "../../../contract/console-dashboard";
import type { Api } from "./client";

/** The console's dashboard. */
export function getDashboard(api: Api) {
  return api.get<ConsoleDashboard>("/admin/dashboard");
}
