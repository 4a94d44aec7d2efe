import { Link } from "../lib/link";
import type { Order } from "../lib/orders";
import { useLocalePath, useT } from "../lib/use-locale";

/** Links to the order's tax invoice and its credit and debit notes, once issued. */
export function OrderDocuments({ order }: { order: Order }) {
  const t = useT();
  const to = useLocalePath();
  const notes = order.credit_notes ?? [];
  const debits = order.debit_notes ?? [];
  if (!order.invoice_number && !notes.length) return null;
  const base = to(`/order/${encodeURIComponent(order.number)}`);
  return (
    <nav className="order-details__box order-documents" aria-labelledby="order-documents-title">
      <h3 id="order-documents-title">{t("invoice.documentsTitle")}</h3>
      <ul>
        {order.invoice_number ? (
          <li>
            <Link to={`${base}/invoice`}>{t("invoice.invoiceLink", { number: order.invoice_number })}</Link>
          </li>
        ) : null}
        {notes.map((note) => (
          <li key={note.id}>
            <Link to={`${base}/credit-note/${note.id}`}>{t("invoice.creditNoteLink", { number: note.number })}</Link>
          </li>
        ))}
        {debits.map((note) => (
          <li key={note.id}>
            <Link to={`${base}/debit-note/${note.id}`}>{t("invoice.debitNoteLink", { number: note.number })}</Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
