import type { TaxDocument } from "../../contract/invoices";
import type { Owned } from "../lib/owned";
import { useT } from "../lib/use-locale";
import { OrderLinkRefused } from "./OrderLinkRefused";
import { TaxDocumentView } from "./TaxDocumentView";
import type { ReadTaxDocumentFile } from "./TaxDocumentFiles";
import { Stylesheet } from "./Stylesheet";
import invoiceCss from "../styles/invoice.css?url";

/** While the document loads in the browser (the page is client only). */
export function HydrateFallback() {
  const t = useT();
  return (
    <div className="container page tax-doc-page">
      <Stylesheet href={invoiceCss} />
      <p aria-busy="true">{t("app.loading")}</p>
    </div>
  );
}

/**
 * The invoice's and the credit note's page: the document, or the failure (a 404 has gone to /error).
 * `files` reads a stamped document's XML and PDF as the page read the document.
 */
export function TaxDocumentPage({ load, files }: { load: Owned<TaxDocument>; files: ReadTaxDocumentFile }) {
  return (
    <div className="container page tax-doc-page">
      <Stylesheet href={invoiceCss} />
      {load.state === "found" ? <TaxDocumentView doc={load.data} files={files} /> : null}
      {load.state === "refused" ? <OrderLinkRefused number={load.number} /> : null}
      {load.state === "error" ? (
        <div className="notice notice--danger" role="alert">
          <p>{load.message}</p>
        </div>
      ) : null}
    </div>
  );
}
