import { useState } from "react";
import type { TaxDocumentFormat } from "../lib/api/orders";
import { ApiError } from "../lib/api/errors";
import { useT } from "../lib/use-locale";

/** Reads one of a stamped document's files through the data layer, with the page's proof of ownership. */
export type ReadTaxDocumentFile = (format: TaxDocumentFormat) => Promise<Blob>;

/**
 * Saves a file the page holds in memory under `name`: a link to an object URL, clicked. The URL is
 * let go a little later, once the browser has started saving from it.
 */
function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/**
 * The signed copies of a stamped tax document, the UBL XML and the PDF that carries it. They are
 * read with the headers a plain link cannot send (the tab's identity, a message link's grant), so
 * each button fetches the file and saves it as `<number>.xml` / `<number>.pdf`.
 */
export function TaxDocumentFiles({ number, read }: { number: string; read: ReadTaxDocumentFile }) {
  const t = useT();
  const [busy, setBusy] = useState<TaxDocumentFormat | null>(null);
  const [error, setError] = useState("");
  const download = async (format: TaxDocumentFormat) => {
    if (busy) return;
    setBusy(format);
    setError("");
    try {
      saveFile(await read(format), `${number}.${format}`);
    } catch (e) {
      setError(e instanceof ApiError && e.message ? e.message : t("invoice.downloadFailed"));
    } finally {
      setBusy(null);
    }
  };
  const button = (format: TaxDocumentFormat, label: string, busyLabel: string) => (
    <button
      type="button"
      className="button"
      onClick={() => void download(format)}
      disabled={busy !== null}
      aria-busy={busy === format}
      data-format={format}
    >
      {busy === format ? busyLabel : label}
    </button>
  );
  return (
    <>
      {button("xml", t("invoice.downloadXml"), t("invoice.downloadingXml"))}
      {button("pdf", t("invoice.downloadPdf"), t("invoice.downloadingPdf"))}
      {error ? (
        <span className="tax-doc__files-error field__error" role="alert">
          {error}
        </span>
      ) : null}
    </>
  );
}
