import type { Env } from "../../env";
import type { EInvoiceRegistration } from "../../../../contract/einvoicing";
import { sellerSettingsOf } from "../shared/settings";
import { documentParts, sellerOf, vatRateOf, type TaxDocumentRow } from "../orders/invoices";
import { parseAddress, type OrderRow } from "../orders/orders";
import type { EInvoiceData, EInvoiceParty } from "./ubl";

/**
 * A tax document as the UBL builder reads it: its lines in both languages ("Arabic | English",
 * as ZATCA's samples name things), the seller from the settings and the unit's registration, the
 * buyer (a business buyer's company, VAT number and national address on a standard document).
 */

const both = (ar: string, en: string) => (ar && ar !== en ? `${ar} | ${en}` : en || ar);

/** UN/ECE 4461: cash for cash on delivery, a bank card for every way of paying online. */
const paymentMeans = (method: string) => (method === "cod" ? "10" : "48");

export async function einvoiceDataOf(
  env: Env,
  order: OrderRow & { buyer_company?: string | null; buyer_vat_number?: string | null },
  doc: TaxDocumentRow,
  registration: EInvoiceRegistration,
  chain: { icv: number; pih: string; uuid: string },
): Promise<EInvoiceData> {
  const settings = await sellerSettingsOf(env, doc.seller);
  const seller = sellerOf(env, "en", settings);
  const [ar, en] = await Promise.all([documentParts(env, order, doc, "ar"), documentParts(env, order, doc, "en")]);
  const transaction = doc.transaction_type === "standard" ? "standard" : "simplified";
  const address = parseAddress(order.address);
  const buyer: EInvoiceParty | null =
    transaction === "standard"
      ? {
          name: order.buyer_company ?? address.name,
          vat_number: order.buyer_vat_number,
          address: {
            street: address.street,
            building_number: address.building ?? "",
            additional_number: address.additional_number ?? null,
            district: address.district,
            city: address.city,
            postal_code: address.postal_code ?? "",
            country: "SA",
          },
        }
      : { name: address.name };
  const invoiceNumber =
    doc.kind === "invoice"
      ? null
      : ((
          await env.DB.prepare("SELECT number FROM tax_documents WHERE order_id = ? AND kind = 'invoice'")
            .bind(order.id)
            .first<{ number: string }>()
        )?.number ?? null);
  return {
    kind: doc.kind,
    transaction,
    number: doc.number,
    uuid: chain.uuid,
    issued_at: doc.issued_at,
    icv: chain.icv,
    pih: chain.pih,
    order_number: order.number,
    seller: {
      name: both(settings.name_ar.trim(), seller.name_en),
      vat_number: seller.vat_number,
      crn: registration.crn,
      address: { ...registration.address, country: "SA" },
    },
    buyer,
    lines: en.parts.map((p, i) => ({ ...p, name: both(ar.parts[i]?.name ?? "", p.name) })),
    discount: en.discount,
    total: doc.total,
    vat_rate: vatRateOf(env, order),
    billing_reference: invoiceNumber,
    reason: doc.kind === "invoice" ? null : both(ar.reason ?? "", en.reason ?? "") || null,
    payment_means: paymentMeans(order.payment_method),
    supply_date: transaction === "standard" ? doc.issued_at.slice(0, 10) : null,
  };
}
