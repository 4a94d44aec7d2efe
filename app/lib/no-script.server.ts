import { data } from "react-router";
import ar from "../../locales/ar.json";
import en from "../../locales/en.json";

/**
 * The action of a form that carries a secret (a password, a one-time code). Such forms post, so
 * without JavaScript the secret never lands in the address bar, the history or a Referer, as it
 * would with a form's default GET. They need the page's script to finish (the signed-in session
 * lives in the tab's storage), so a post without it is answered 400 with the shop's error page
 * saying so, in the page's language; nothing posted is echoed. The page is the error boundary's,
 * so no browser downloads code or a message for a case only a browser without JavaScript meets.
 */
export function scriptRequired({ params }: { params: { locale?: string } }): never {
  const messages = params.locale === "ar" ? ar : en;
  throw data(messages.noScript.needsScript, { status: 400 });
}
