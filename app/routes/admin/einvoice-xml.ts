import type { Route } from "./+types/einvoice-xml";
import { roleAtLeast } from "../../../contract/console";
import { buildHeaders } from "../../lib/api/client";
import { einvoiceXmlPath } from "../../lib/api/console-einvoicing";
import { consoleContext, consoleLocale } from "../../lib/console";
import { shopContext } from "../../lib/context";
import { deviceTypeFromHeaders } from "../../lib/device";

/** What the backend's answer keeps on its way to the tab: the file and its name, never a cache. */
const KEPT_HEADERS = ["content-type", "content-disposition", "content-length"];

/**
 * A tax document's signed XML, opened from the e-invoicing page's link in its own tab. The staff
 * token lives in the tab's session storage and a link cannot carry it; this route answers at the
 * console's address with the own server's session (its cookie), as the shipping documents do, and
 * hands the backend's file through. The console's middleware has already let only staff through.
 */
export async function loader({ context, request, params }: Route.LoaderArgs) {
  const locale = consoleLocale(params);
  const me = context.get(consoleContext);
  if (!me || !/^[1-9]\d{0,15}$/.test(params.id)) return new Response("Not found", { status: 404 });
  // The page is the managers' and owners'; the backend checks again.
  if (!roleAtLeast(me.role, "manager")) return new Response("Forbidden", { status: 403 });
  const shop = context.get(shopContext);
  const session = await shop.getSession();
  const headers = buildHeaders({ locale, deviceType: deviceTypeFromHeaders(request.headers), token: session?.token });
  headers.set("accept", "application/xml, application/json");
  const answer = await shop.backend(einvoiceXmlPath(Number(params.id)), { method: "GET", headers });
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
