import type { Route } from "./+types/einvoice-xml";
import { einvoiceXmlPath } from "../../lib/api/console-einvoicing";
import { consoleLocale } from "../../lib/console";
import { consoleDocument } from "../../lib/console-document.server";

/**
 * A tax document's signed XML, opened from the e-invoicing page's link in its own tab, through
 * the own server's session (lib/console-document.server.ts); managers and owners.
 */
export async function loader(args: Route.LoaderArgs) {
  const id = args.params.id;
  return consoleDocument(
    args,
    consoleLocale(args.params),
    /^[1-9]\d{0,15}$/.test(id) ? einvoiceXmlPath(Number(id)) : null,
    "application/xml",
  );
}
