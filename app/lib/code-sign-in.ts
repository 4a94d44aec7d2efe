import { redirect } from "react-router";
import { answer, intentOf, textOf, unknownIntent } from "./actions";
import { requestSignInCode, saveName, verifySignInCode } from "./api/code-sign-in";
import { browserApi } from "./api/browser";
import { ApiError } from "./api/errors";
import type { Locale } from "./locales";
import { signInWith } from "./sign-in";
import { safeRedirect } from "../middleware/auth";

/**
 * The code sign-in's intents of the login page's `clientAction` (and the welcome page's name), in a
 * module of their own that the action loads on first use, so the login page's first load stays
 * within its budget (docs/PERFORMANCE.md).
 */
export const CODE_INTENTS = ["code-request", "code-verify"] as const;

/** Where a new account is asked its name, keeping where the visitor was going. */
export function welcomePath(locale: Locale, redirectTo: string | null): string {
  const target = safeRedirect(redirectTo, locale);
  return `/${locale}/auth/welcome${target ? `?redirect=${encodeURIComponent(target)}` : ""}`;
}

/** What the code step answers: signed in (and whether a name is still owed), or the password is needed too. */
type CodeChecked = { needs_name: boolean; name: string } | { needs_password: true };

export async function codeSignInAction(locale: Locale, form: FormData) {
  const intent = intentOf(form, CODE_INTENTS);
  if (!intent) return unknownIntent(locale);
  const api = browserApi(locale);
  const email = textOf(form, "email").trim();
  // A code goes to the email when one was given (the email channel), else to the phone.
  const recipient = email ? { email } : { phone: textOf(form, "phone").replace(/[\s\-().]/g, "") };
  if (intent === "code-request") return answer(locale, intent, () => requestSignInCode(api, recipient));
  const checked = await answer<"code-verify", CodeChecked>(locale, intent, async () => {
    let res;
    try {
      res = await verifySignInCode(api, recipient, textOf(form, "code"), textOf(form, "password"));
    } catch (error) {
      // A number that was typed at registration and never proven: the right code asks for the
      // account's password as well (the backend's 409 `needs_password`); the form shows the field.
      if (error instanceof ApiError && error.status === 409 && needsPassword(error.body))
        return { data: { needs_password: true } };
      throw error;
    }
    const user = await signInWith(res.data);
    return { data: { needs_name: res.data.needs_name, name: user.name }, message: res.message };
  });
  // A new account is asked its name next (the welcome page), then goes where it was going.
  if (checked.ok && "needs_name" in checked.value && checked.value.needs_name)
    throw redirect(welcomePath(locale, textOf(form, "redirect") || null));
  return checked;
}

export async function nameAction(locale: Locale, form: FormData) {
  return answer(locale, "name", async () => {
    const res = await saveName(browserApi(locale), textOf(form, "name"));
    const { saveStoredUser } = await import("./identity");
    await saveStoredUser(res.data);
    return res;
  });
}

const needsPassword = (body: unknown): boolean =>
  typeof body === "object" && body !== null && (body as { needs_password?: unknown }).needs_password === true;
