import { Hono } from "hono";
import { SETTINGS_SECTIONS, type CartRemindersSettings, type SettingsValues } from "../../../../contract/settings";
import type { BackendEnv } from "../../env";
import { BackendError, ok } from "../../http";
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

/** The code a cart reminder offers must be one of the shop's, active and not past its end. */
async function checkReminderOffer(db: D1Database, value: CartRemindersSettings, lang: "en" | "ar"): Promise<void> {
  if (!value.promo_code) return;
  const found = await db
    .prepare(
      `SELECT 1 AS x FROM promo_codes WHERE code = ? AND active = 1
         AND (ends_at IS NULL OR ends_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
    )
    .bind(value.promo_code)
    .first<number>("x");
  if (found) return;
  const text = say(lang, msg("cartReminders.unknownCode"));
  throw new BackendError(422, text, { promo_code: [text] });
}

settingsRoutes.use(staffOnly("owner"));

settingsRoutes.get("/", async (c) => ok(c, await consoleSettings(c.env)));

for (const section of SETTINGS_SECTIONS) {
  settingsRoutes.put(
    `/${section}`,
    validate("json", (_m, lang) => sectionSchema(section, lang)),
    async (c) => {
      const value = c.req.valid("json") as SettingsValues[typeof section];
      if (section === "cart_reminders")
        await checkReminderOffer(c.env.DB, value as CartRemindersSettings, c.get("lang"));
      await saveSettingsSection(c.env, currentStaff(c), section, value);
      return ok(c, await consoleSettings(c.env), {
        message: say(c.get("lang"), msg("settings.saved")),
      });
    },
  );
}
