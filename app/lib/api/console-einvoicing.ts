import type { EInvoiceOverview, EInvoiceRegistration, EInvoiceStatus } from "../../../contract/einvoicing";
import type { Api } from "./client";

/**
 * E-invoicing phase 2 in the console: the shop's unit (EGS) and its onboarding with ZATCA (owners),
 * and the reporting queue (managers and owners). Every call answers the whole overview, so the page
 * shows the unit as the backend left it. A document's signed XML is a file a browser opens:
 * `einvoiceXmlHref` names it under the console (routes/admin/einvoice-xml.ts).
 */

/** GET /admin/einvoicing: the unit, its certificate and the latest documents (of one status, if given). */
export function getEInvoicing(api: Api, filter: { status?: EInvoiceStatus } = {}) {
  const path = "/admin/einvoicing";
  return filter.status
    ? api.get<EInvoiceOverview>(path, { query: { status: filter.status } })
    : api.get<EInvoiceOverview>(path);
}

/** PUT /admin/einvoicing/registration: the unit's details; the backend makes its key pair and CSR. */
export function registerEInvoiceUnit(api: Api, registration: EInvoiceRegistration) {
  return api.put<EInvoiceOverview>("/admin/einvoicing/registration", registration);
}

/** POST /admin/einvoicing/compliance: the Fatoora portal's OTP buys the compliance certificate and runs the checks. */
export function requestComplianceCertificate(api: Api, otp: string) {
  return api.post<EInvoiceOverview>("/admin/einvoicing/compliance", { otp });
}

/** POST /admin/einvoicing/production: the production certificate; from then every document is reported. */
export function requestProductionCertificate(api: Api) {
  return api.post<EInvoiceOverview>("/admin/einvoicing/production");
}

/** POST /admin/einvoicing/renew: a new production certificate before the old one expires. */
export function renewProductionCertificate(api: Api, otp: string) {
  return api.post<EInvoiceOverview>("/admin/einvoicing/renew", { otp });
}

/** POST /admin/einvoicing/documents/{id}/resend: a rejected document again, once its cause is fixed. */
export function resendEInvoice(api: Api, id: number) {
  return api.post<EInvoiceOverview>(`/admin/einvoicing/documents/${id}/resend`);
}

/** The backend path of a document's signed XML. */
export const einvoiceXmlPath = (id: number) => `/admin/einvoicing/documents/${id}/xml`;

/**
 * Where the browser opens a document's XML: the console's own path, which the edge answers with the
 * staff session's cookie (a plain link carries no bearer token).
 */
export const einvoiceXmlHref = (locale: string, id: number) => `/${locale}${einvoiceXmlPath(id)}`;
