import type { Route } from "./+types/order-credit-note";
import { TaxDocumentView } from "../../components/TaxDocumentView";
import { getConsoleCreditNote } from "../../lib/api/console-orders";
import { consoleLoad, consoleMeta } from "../../lib/console";

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "invoice.creditNoteTitle");

export async function loader(args: Route.LoaderArgs) {
  // Both notes: /credit-notes/{id} and /debit-notes/{id} (routes.ts).
  const kind = new URL(args.request.url).pathname.includes("/debit-notes/") ? "debit" : "credit";
  return consoleLoad(
    args,
    async (api) => (await getConsoleCreditNote(api, args.params.number, args.params.id, kind)).data,
  );
}

/** One of the order's credit notes as the shopper gets it, for staff to view and print. */
export default function ConsoleCreditNote({ loaderData, params }: Route.ComponentProps) {
  return (
    <div className="tax-doc-page">
      <TaxDocumentView doc={loaderData} backTo={`/${params.locale}/admin/orders/${params.number}`} />
    </div>
  );
}
