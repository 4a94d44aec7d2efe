import { redirect } from "react-router";
import { handleApiError, type FieldError } from "./api/errors";
import { translate } from "./i18n";
import type { Locale } from "./locales";

/**
 * A route's `clientAction` (the tab holds the bearer token, so mutations run in the browser): the
 * form names what to do in its `intent` field and the action switches over it, in the manner of
 * Hydrogen's `cart.tsx`. The action answers data and shows nothing: the component that submitted
 * it toasts, closes its dialog or puts field errors on its form (app/components/form/useRouteAction.ts).
 */

/** The field every action form carries: which of the route's mutations it asks for. */
export const INTENT = "intent";

/** What an action answers its form. */
export type ActionAnswer<I extends string = string, V = unknown> =
  | {
      ok: true;
      intent: I;
      /** What the backend answered, for the form that needs more than "done" (a new record's id). */
      value: V;
      /** A message the backend sent with a success (a step the provider refused, to show as an error). */
      message?: string;
    }
  | {
      ok: false;
      intent: I;
      /** The common handler's status: 400/403/422 belong to the form, others to a toast. */
      status: number;
      message: string;
      errors: FieldError[];
    };

/** The submitted intent, if it is one the route knows. */
export function intentOf<I extends string>(form: FormData, known: readonly I[]): I | null {
  const intent = form.get(INTENT);
  return typeof intent === "string" && (known as readonly string[]).includes(intent) ? (intent as I) : null;
}

/** A submitted text field as typed; "" when it is missing. */
export function textOf(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

/**
 * Runs one mutation for an action and answers what its form needs. A failure goes through the
 * common handler of spec §8: a 401 or 404 becomes the redirect it asks for (thrown, so React Router
 * navigates); every other failure comes back as data, with the status, message and field errors.
 */
export async function answer<I extends string, V>(
  locale: Locale,
  intent: I,
  run: () => Promise<{ data: V; message?: string }>,
): Promise<ActionAnswer<I, V>> {
  try {
    const result = await run();
    return { ok: true, intent, value: result.data, ...(result.message ? { message: result.message } : {}) };
  } catch (error) {
    const handled = handleApiError(error, {
      locale,
      redirect: (to) => {
        throw redirect(to);
      },
      // The component that submitted shows it: an action has no screen.
      toast: () => {},
    });
    return { ok: false, intent, status: handled.status, message: handled.message, errors: handled.errors ?? [] };
  }
}

/** An intent the route does not know: a 400 for the form, never a call to the backend. */
export function unknownIntent(locale: Locale): ActionAnswer<never, never> {
  return { ok: false, intent: "" as never, status: 400, message: translate(locale, "errors.default"), errors: [] };
}
