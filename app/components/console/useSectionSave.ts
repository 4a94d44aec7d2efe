import { useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import type { SettingsSection, SettingsValues } from "../../../contract/settings";
import { toast } from "../../client/toast";
import { browserApi } from "../../lib/api/browser";
import { saveStoreSettings } from "../../lib/api/console-settings";
import type { FieldError } from "../../lib/api/errors";
import { handleBrowserError } from "../../lib/browser-errors";
import { useLocale, useT } from "../../lib/use-locale";

/**
 * The submit of a settings section's form: the form's own check first (its field errors, and the
 * summary focused again on every attempt), then PUT /admin/settings/{section}, the toast, and the
 * server's field errors back on their inputs. The zones and carriers forms share it.
 */
export function useSectionSave<S extends SettingsSection>(section: S) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState("");
  const [attempt, setAttempt] = useState(0);
  const [busy, setBusy] = useState(false);

  const submit = async (e: React.FormEvent, check: () => { input: SettingsValues[S] | null; found: FieldError[] }) => {
    e.preventDefault();
    if (busy) return;
    setAttempt((n) => n + 1);
    const { input, found } = check();
    setErrors(found);
    setMessage("");
    if (!input) return;
    setBusy(true);
    const id = toast.loading(t("console.saving"));
    try {
      await saveStoreSettings(browserApi(locale), section, input);
      toast.success(t("console.settings.saved"), { id });
      await revalidator.revalidate();
    } catch (error) {
      toast.dismiss(id);
      const handled = handleBrowserError(error, locale, (to) => void navigate(to));
      if (handled.status === 422 || handled.status === 400 || handled.status === 403) {
        setErrors(handled.errors ?? []);
        setMessage(handled.message);
      }
    } finally {
      setBusy(false);
    }
  };

  return { errors, setErrors, message, attempt, busy, submit };
}
