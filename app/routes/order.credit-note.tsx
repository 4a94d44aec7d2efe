import type { Route } from "./+types/order.credit-note";
import { TaxDocumentPage } from "../components/TaxDocumentPage";
import { readOwnedOrder, type Owned } from "../lib/owned";
import { getCreditNote, getCreditNoteFile } from "../lib/api/orders";
import type { TaxDocument } from "../../contract/invoices";
import { isLocale } from "../lib/locales";
import { pageMeta } from "../lib/seo";
import { translate } from "../lib/i18n";
import { tabIdentity } from "../lib/tab-identity.server";
import { browserApi } from "../lib/api/browser";
import { readOrderGrant } from "../lib/order-grants";
import { useLocale } from "../lib/use-locale";
import { useLocation } from "react-router";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    page: "checkoutStatus",
    title: translate(isLocale(args.params.locale) ? args.params.locale : "en", "invoice.creditNoteTitle"),
    description: translate(isLocale(args.params.locale) ? args.params.locale : "en", "invoice.description"),
    noindex: true,
  });

/** The server gives the page only the signed-in session's token, for a new tab (tab-identity.server.ts). */
export async function loader({ context }: Route.LoaderArgs) {
  return { identity: await tabIdentity(context) };
}

/** A refund's credit note, or a debit note: read in the browser, like the invoice (order.invoice.tsx). */
export async function clientLoader({
  params,
  request,
  serverLoader,
}: Route.ClientLoaderArgs): Promise<Owned<TaxDocument>> {
  const locale = isLocale(params.locale) ? params.locale : "en";
  return readOwnedOrder(
    locale,
    request.signal,
    params.number,
    async () => (await serverLoader()).identity,
    (api, access) => getCreditNote(api, params.number, params.id, request.signal, access, noteKindOf(request.url)),
  );
}
clientLoader.hydrate = true as const;

export { HydrateFallback } from "../components/TaxDocumentPage";

/** The page serves both notes: /credit-note/{id} and /debit-note/{id} (routes.ts). */
const noteKindOf = (url: string) => (new URL(url, "http://x").pathname.includes("/debit-note/") ? "debit" : "credit");

export default function CreditNotePage({ loaderData, params }: Route.ComponentProps) {
  const locale = useLocale();
  const kind = noteKindOf(useLocation().pathname);
  return (
    <TaxDocumentPage
      load={loaderData}
      files={(format) =>
        getCreditNoteFile(
          browserApi(locale),
          params.number,
          params.id,
          format,
          undefined,
          readOrderGrant(params.number),
          kind,
        )
      }
    />
  );
}
