import type { RouterContextProvider } from "react-router";
import { roleAtLeast } from "../../contract/console";
import { buildHeaders } from "./api/client";
import { consoleContext } from "./console";
import { shopContext } from "./context";
import { deviceTypeFromHeaders } from "./device";
import type { Locale } from "./locales";

/** What the backend's answer keeps on its way to the tab: the file and its name, never a cache. */
const KEPT_HEADERS = ["content-type", "content-disposition", "content-length"];

/**
 * A console document (a shipping PDF, a tax document's XML) opened from a link in its own tab.
 * The staff token lives in the tab's session storage, which a link cannot carry; the route answers
 * at the console's address with the own server's session (its cookie) and hands the backend's file
 * through. Managers and owners only (the backend checks again); `path` null: no such document (404).
 */
export async function consoleDocument(
  { context, request }: { context: Readonly<RouterContextProvider>; request: Request },
  locale: Locale,
  path: string | null,
  accept: string,
): Promise<Response> {
  const me = context.get(consoleContext);
  if (!me || path === null) return new Response("Not found", { status: 404 });
  if (!roleAtLeast(me.role, "manager")) return new Response("Forbidden", { status: 403 });
  const shop = context.get(shopContext);
  const session = await shop.getSession();
  const headers = buildHeaders({ locale, deviceType: deviceTypeFromHeaders(request.headers), token: session?.token });
  headers.set("accept", `${accept}, application/json`);
  const answer = await shop.backend(path, { method: "GET", headers });
  if (!answer.ok) {
    // The backend's reason in words (it is JSON), for the tab that opened the link.
    const body = (await answer.json().catch(() => ({}))) as { message?: unknown };
    const message = typeof body.message === "string" && body.message ? body.message : answer.statusText;
    return new Response(message, {
      status: answer.status,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "private, no-store" },
    });
  }
  const out = new Headers({ "cache-control": "private, no-store" });
  for (const name of KEPT_HEADERS) {
    const value = answer.headers.get(name);
    if (value) out.set(name, value);
  }
  return new Response(answer.body, { status: 200, headers: out });
}
