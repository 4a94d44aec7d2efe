import type { Route } from "./+types/order.credit-note";
import { TaxDocumentPage } from "../components/TaxDocumentPage";
import { readOwned, type Owned } from "../lib/api/owned";
import { getCreditNote } from "../lib/api/orders";
import type { TaxDocument } from "../../contract/invoices";
import { isLocale } from "../lib/locales";
import { pageMeta } from "../lib/seo";
import { translate } from "../lib/i18n";
import "../styles/invoice.css";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    page: "checkoutStatus",
    title: translate(isLocale(args.params.locale) ? args.params.locale : "en", "invoice.creditNoteTitle"),
    description: translate(isLocale(args.params.locale) ? args.params.locale : "en", "invoice.description"),
    noindex: true,
  });

/** A refund's credit note: client only, like the invoice (order.invoice.tsx). */
export async function clientLoader({ params, request }: Route.ClientLoaderArgs): Promise<Owned<TaxDocument>> {
  const locale = isLocale(params.locale) ? params.locale : "en";
  return readOwned(locale, request.signal, (api) => getCreditNote(api, params.number, params.id, request.signal));
}
clientLoader.hydrate = true as const;

export { HydrateFallback } from "../components/TaxDocumentPage";

export default function CreditNotePage({ loaderData }: Route.ComponentProps) {
  return <TaxDocumentPage load={loaderData} />;
}
