import type { Route } from "./+types/order.invoice";
import { TaxDocumentPage } from "../components/TaxDocumentPage";
import { readOwnedOrder, type Owned } from "../lib/owned";
import { getInvoice, getInvoiceFile } from "../lib/api/orders";
import type { TaxDocument } from "../../contract/invoices";
import { isLocale } from "../lib/locales";
import { pageMeta } from "../lib/seo";
import { translate } from "../lib/i18n";
import { tabIdentity } from "../lib/tab-identity.server";
import { browserApi } from "../lib/api/browser";
import { readOrderGrant } from "../lib/order-grants";
import { useLocale } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    page: "checkoutStatus",
    title: translate(isLocale(args.params.locale) ? args.params.locale : "en", "invoice.title"),
    description: translate(isLocale(args.params.locale) ? args.params.locale : "en", "invoice.description"),
    noindex: true,
  });

/** The server gives the page only the signed-in session's token, for a new tab (tab-identity.server.ts). */
export async function loader({ context }: Route.LoaderArgs) {
  return { identity: await tabIdentity(context) };
}

/**
 * A paid order's tax invoice. Read in the browser, like the order's status page: a guest owns the
 * order through the guest id or a message link's grant in session storage, which the server
 * cannot see (and the page is personal: never kept by the page cache, which only keeps opted-in
 * routes, nor by the service worker).
 */
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
    (api, access) => getInvoice(api, params.number, request.signal, access),
  );
}
clientLoader.hydrate = true as const;

export { HydrateFallback } from "../components/TaxDocumentPage";

export default function InvoicePage({ loaderData, params }: Route.ComponentProps) {
  const locale = useLocale();
  return (
    <TaxDocumentPage
      load={loaderData}
      files={(format) =>
        getInvoiceFile(browserApi(locale), params.number, format, undefined, readOrderGrant(params.number))
      }
    />
  );
}
