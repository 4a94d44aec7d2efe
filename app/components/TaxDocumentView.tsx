import { useMemo } from "react";
import { Link } from "../lib/link";
import { encode } from "uqr";
import type { TaxDocument } from "../../contract/invoices";
import { formatMoney } from "../lib/money";
import { formatDate } from "../lib/orders";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { NationalAddressLine } from "./NationalAddress";
import { TaxDocumentFiles, type ReadTaxDocumentFile } from "./TaxDocumentFiles";
import { Stylesheet } from "./Stylesheet";
import invoiceCss from "../styles/invoice.css?url";

/**
 * ZATCA's QR code drawn as SVG from the document's base64 TLV payload, by uqr (a maintained,
 * dependency-free encoder that runs offline in the browser): one path of dark modules.
 */
export function ZatcaQr({ payload, label }: { payload: string; label: string }) {
  const { path, size } = useMemo(() => {
    // Low error correction: a stamped payload (tags 1 to 9) then needs the fewest, largest modules.
    const qr = encode(payload, { ecc: "L", border: 2 });
    let d = "";
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) d += `M${x} ${y}h1v1h-1z`;
      }),
    );
    return { path: d, size: qr.size };
  }, [payload]);
  return (
    <svg
      className="tax-doc__qr"
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      shapeRendering="crispEdges"
      data-qr-payload={payload}
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/** The keys of a document's title (in the page's language, and in the other) and of its number's label. */
function titleKeys(doc: TaxDocument): { title: string; other: string; number: string } {
  if (doc.kind === "credit_note")
    return {
      title: "invoice.creditNoteTitle",
      other: "invoice.otherCreditNoteTitle",
      number: "invoice.creditNoteNumber",
    };
  if (doc.kind === "debit_note")
    return { title: "invoice.debitNoteTitle", other: "invoice.otherDebitNoteTitle", number: "invoice.debitNoteNumber" };
  return doc.transaction === "standard"
    ? { title: "invoice.standardTitle", other: "invoice.otherStandardTitle", number: "invoice.number" }
    : { title: "invoice.title", other: "invoice.otherTitle", number: "invoice.number" };
}

/**
 * A printable tax document (a simplified or standard tax invoice, a credit or debit note): seller
 * and buyer, lines with their VAT, totals and ZATCA's QR. Labels are in the page's language; the
 * document's title is given in both, as Saudi invoices do. Once stamped, its UUID shows, and
 * `files` (the shopper's pages) offers its signed XML and PDF.
 */
export function TaxDocumentView({
  doc,
  backTo,
  files,
}: {
  doc: TaxDocument;
  backTo?: string;
  files?: ReadTaxDocumentFile;
}) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const money = (n: number) => <bdi>{formatMoney(n, doc.currency, locale)}</bdi>;
  // A credit or debit note: it corrects an invoice, for a reason, and carries no shipping or discount of its own.
  const note = doc.kind !== "invoice";
  const keys = titleKeys(doc);
  const sellerName = locale === "ar" ? doc.seller.name_ar : doc.seller.name_en;
  const sellerOther = locale === "ar" ? doc.seller.name_en : doc.seller.name_ar;
  const address = locale === "ar" ? doc.seller.address_ar : doc.seller.address_en;
  const rate = `${Math.round(doc.vat_rate * 10000) / 100}%`;
  return (
    <article className="tax-doc" aria-labelledby="tax-doc-title">
      <Stylesheet href={invoiceCss} />
      <header className="tax-doc__head">
        <div className="tax-doc__seller">
          <p className="tax-doc__seller-name" dir="auto">
            {sellerName}
          </p>
          {sellerOther !== sellerName ? (
            <p className="tax-doc__seller-other" lang={locale === "ar" ? "en" : "ar"} dir="auto">
              {sellerOther}
            </p>
          ) : null}
          {address ? <p>{address}</p> : null}
          <p>
            {t("invoice.vatNumber")}: <bdi dir="ltr">{doc.seller.vat_number}</bdi>
          </p>
        </div>
        <ZatcaQr payload={doc.qr} label={t("invoice.qrLabel")} />
      </header>
      <h1 id="tax-doc-title" className="tax-doc__title">
        {t(keys.title)}
        <span className="tax-doc__title-other" lang={locale === "ar" ? "en" : "ar"}>
          {t(keys.other)}
        </span>
      </h1>
      <dl className="tax-doc__facts">
        <div>
          <dt>{t(keys.number)}</dt>
          <dd>
            <bdi dir="ltr" data-testid="document-number">
              {doc.number}
            </bdi>
          </dd>
        </div>
        {note && doc.invoice_number ? (
          <div>
            <dt>{t("invoice.correctsInvoice")}</dt>
            <dd>
              <bdi dir="ltr">{doc.invoice_number}</bdi>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{t("invoice.issuedAt")}</dt>
          <dd>
            <time dateTime={doc.issued_at}>{formatDate(doc.issued_at, locale, true)}</time>
          </dd>
        </div>
        <div>
          <dt>{t("invoice.orderNumber")}</dt>
          <dd>
            <bdi dir="ltr">{doc.order_number}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t("invoice.buyer")}</dt>
          <dd>
            {doc.buyer.company ? (
              <span className="tax-doc__company">
                <bdi>{doc.buyer.company}</bdi>
              </span>
            ) : null}
            <bdi>{doc.buyer.name}</bdi>
            {doc.buyer.city ? (
              <>
                {locale === "ar" ? "، " : ", "}
                <bdi>{doc.buyer.city}</bdi>
              </>
            ) : null}
            <NationalAddressLine address={doc.buyer} />
          </dd>
        </div>
        {doc.buyer.vat_number ? (
          <div>
            <dt>{t("invoice.buyerVatNumber")}</dt>
            <dd>
              <bdi dir="ltr" data-testid="buyer-vat-number">
                {doc.buyer.vat_number}
              </bdi>
            </dd>
          </div>
        ) : null}
        {doc.einvoice ? (
          <div className="tax-doc__uuid-row">
            <dt>{t("invoice.uuid")}</dt>
            <dd>
              <code className="tax-doc__uuid" dir="ltr" data-testid="einvoice-uuid">
                {doc.einvoice.uuid}
              </code>
            </dd>
          </div>
        ) : null}
      </dl>
      {/* A phone scrolls the lines sideways in their own (focusable) region, never the page. */}
      <div
        className="tax-doc__scroll"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrollable region is focusable (axe: scrollable-region-focusable)
        tabIndex={0}
        role="region"
        aria-label={t("invoice.linesLabel")}
      >
        <table className="tax-doc__lines">
          <thead>
            <tr>
              <th scope="col">{t("invoice.item")}</th>
              <th scope="col">{t("invoice.quantity")}</th>
              <th scope="col">{t("invoice.unitPrice")}</th>
              <th scope="col">{t("invoice.vat")}</th>
              <th scope="col">{t("invoice.lineTotal")}</th>
            </tr>
          </thead>
          <tbody>
            {doc.lines.map((line, i) => (
              <tr key={i}>
                <th scope="row">{line.name}</th>
                <td>{line.quantity}</td>
                <td>{money(line.unit_price)}</td>
                <td>{money(line.vat)}</td>
                <td>{money(line.line_total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {note && doc.reason ? (
        <p className="tax-doc__reason">
          {t("invoice.reason")}: <bdi>{doc.reason}</bdi>
        </p>
      ) : null}
      <dl className="tax-doc__totals">
        <div>
          <dt>{t("invoice.subtotal")}</dt>
          <dd>{money(doc.subtotal)}</dd>
        </div>
        {!note && doc.discount > 0 ? (
          <div>
            <dt>{t("invoice.discount")}</dt>
            <dd>{money(-doc.discount)}</dd>
          </div>
        ) : null}
        {!note ? (
          <div>
            <dt>{t("invoice.shipping")}</dt>
            <dd>{money(doc.shipping)}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t("invoice.vatTotal", { rate })}</dt>
          <dd>{money(doc.vat)}</dd>
        </div>
        <div className="tax-doc__grand">
          <dt>{t("invoice.total")}</dt>
          <dd>{money(doc.total)}</dd>
        </div>
      </dl>
      <p className="tax-doc__actions">
        <button type="button" className="button button--primary" onClick={() => window.print()}>
          {t("invoice.print")}
        </button>
        {doc.einvoice && files ? <TaxDocumentFiles number={doc.number} read={files} /> : null}
        {/* The console's staff view goes back to the console's order page; the shopper's to theirs. */}
        <Link to={backTo ?? `${to("/order/checkout/status")}?order=${encodeURIComponent(doc.order_number)}`}>
          {t("invoice.backToOrder")}
        </Link>
      </p>
    </article>
  );
}
