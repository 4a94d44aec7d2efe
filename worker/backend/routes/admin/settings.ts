import { Hono } from "hono";
import { SETTINGS_SECTIONS, type SettingsValues } from "../../../../contract/settings";
import type { BackendEnv } from "../../env";
import { ok } from "../../http";
import { say } from "../../../../contract/server/i18n";
import { validate } from "../../../../contract/server/validate";
import { consoleSettings, saveSettingsSection, sectionSchema } from "../../services/shared/settings";
import { currentStaff, staffOnly } from "../../services/console/staff";
import { msg } from "../../messages";

/**
 * /admin/settings (owners): the store's settings (services/shared/settings.ts). GET answers them all;
 * PUT /admin/settings/{section} replaces one section, checked whole by its schema (a 422 names
 * each refused field, nothing is written), and audits the change with its before and after.
 */
export const settingsRoutes = new Hono<BackendEnv>();

settingsRoutes.use(staffOnly("owner"));

settingsRoutes.get("/", async (c) => ok(c, await consoleSettings(c.env)));

for (const section of SETTINGS_SECTIONS) {
  settingsRoutes.put(
    `/${section}`,
    validate("json", (_m, lang) => sectionSchema(section, lang)),
    async (c) => {
      const value = c.req.valid("json") as SettingsValues[typeof section];
      await saveSettingsSection(c.env, currentStaff(c), section, value);
      return ok(c, await consoleSettings(c.env), {
        message: say(c.get("lang"), msg("settings.saved")),
      });
    },
  );
}
