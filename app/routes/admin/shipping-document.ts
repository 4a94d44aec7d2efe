import type { Route } from "./+types/shipping-document";
import { isShippingDocument, shippingDocumentPath } from "../../lib/api/console-shipments";
import { consoleLocale } from "../../lib/console";
import { consoleDocument } from "../../lib/console-document.server";

/**
 * A shipping document (parcel labels, the pick list, a carrier's manifest) opened from a console
 * link in its own tab, through the own server's session (lib/console-document.server.ts). Labels
 * carry whole addresses: managers and owners print them.
 */
export async function loader(args: Route.LoaderArgs) {
  const document = args.params.document;
  const path = isShippingDocument(document) ? shippingDocumentPath(document, args.url.searchParams) : null;
  return consoleDocument(args, consoleLocale(args.params), path, "application/pdf");
}
