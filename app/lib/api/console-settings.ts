import type { ConsoleSettings, SettingsSection, SettingsValues } from "../../../contract/settings";
import type { Api } from "./client";

/** The store's settings in the console: owners only. */

export function getStoreSettings(api: Api) {
  return api.get<ConsoleSettings>("/admin/settings");
}

/** Replaces one section; a 422 names each refused field. */
export function saveStoreSettings<S extends SettingsSection>(api: Api, section: S, value: SettingsValues[S]) {
  return api.put<ConsoleSettings>(`/admin/settings/${section}`, value);
}
