import type { Route } from "./+types/order-invoice";
import { TaxDocumentView } from "../../components/TaxDocumentView";
import { getConsoleInvoice } from "../../lib/api/console-orders";
import { consoleLoad, consoleMeta } from "../../lib/console";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "invoice.title");

export async function loader(args: Route.LoaderArgs) {
  return consoleLoad(args, async (api) => (await getConsoleInvoice(api, args.params.number)).data);
}

/** The order's tax invoice as the shopper gets it, for staff to view and print. */
export default function ConsoleInvoice({ loaderData, params }: Route.ComponentProps) {
  return (
    <div className="tax-doc-page">
      <TaxDocumentView doc={loaderData} backTo={`/${params.locale}/admin/orders/${params.number}`} />
    </div>
  );
}
