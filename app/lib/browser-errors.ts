import { toast } from "../client/toast";
import { handleApiError, type HandledError } from "./api/errors";
import type { Locale } from "./locales";

/**
 * The common handler of spec §8 in the browser: real navigation and sonner toasts. It lives beside
 * the data layer, not in it: app/lib/api/ throws `ApiError` values and shows nothing, so a loader
 * or an action can call it without a toast appearing; the UI that catches an error decides.
 */
export function handleBrowserError(error: unknown, locale: Locale, navigate: (to: string) => void): HandledError {
  return handleApiError(error, { locale, redirect: navigate, toast: (m) => toast.error(m) });
}
