import type { TaxDocument } from "../../contract/invoices";
import type { Owned } from "../lib/api/owned";
import { useT } from "../lib/use-locale";
import { TaxDocumentView } from "./TaxDocumentView";

/** While the document loads in the browser (the page is client only). */
export function HydrateFallback() {
  const t = useT();
  return (
    <div className="container page tax-doc-page">
      <p aria-busy="true">{t("app.loading")}</p>
    </div>
  );
}

/** The invoice's and the credit note's page: the document, or why there is none. */
export function TaxDocumentPage({ load }: { load: Owned<TaxDocument> }) {
  const t = useT();
  return (
    <div className="container page tax-doc-page">
      {load.state === "found" ? <TaxDocumentView doc={load.data} /> : null}
      {load.state === "missing" ? (
        <div className="notice" role="status">
          <h1>{t("invoice.title")}</h1>
          <p>{t("invoice.notFound")}</p>
        </div>
      ) : null}
      {load.state === "error" ? (
        <div className="notice notice--danger" role="alert">
          <p>{load.message}</p>
        </div>
      ) : null}
    </div>
  );
}
