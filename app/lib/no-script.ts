import { data } from "react-router";

/**
 * The answer of a form that carries a secret (a password, a one-time code) when it is posted
 * without JavaScript. Such forms post, so the secret never lands in the address bar, the history
 * or a Referer, as it would with a form's default GET. They need the page's script to finish (the
 * signed-in session lives in the tab's storage), so the page only says so, in the page's language
 * (NoScriptNotice), and shows the form again empty: what was posted is not echoed.
 */
export interface NoScriptAnswer {
  scriptRequired: true;
}

export function scriptRequired() {
  return data<NoScriptAnswer>({ scriptRequired: true }, { status: 400 });
}

export const isScriptRequired = (value: unknown): value is NoScriptAnswer =>
  typeof value === "object" && value !== null && (value as Partial<NoScriptAnswer>).scriptRequired === true;
