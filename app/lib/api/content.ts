import type { HomeData, PageSummary, Service, ServiceDetails } from "../catalogue";
import type { Api } from "./client";

/**
 * The shop's content: the home page, the services, the content pages and the contact form.
 * Each takes the caller's client and answers the backend's envelope; failures are the client's
 * `ApiError`.
 */

/** GET /home: banners, category tiles and the featured row. */
export function getHome(api: Api) {
  return api.get<HomeData>("/home");
}

/** GET /services: every service. */
export function listServices(api: Api) {
  return api.get<Service[]>("/services");
}

/** GET /services/{slug}: one service. */
export function getService(api: Api, slug: string) {
  return api.get<ServiceDetails>(`/services/${encodeURIComponent(slug)}`);
}

/** GET /pages: the content pages (about, terms, …). */
export function listPages(api: Api) {
  return api.get<PageSummary[]>("/pages");
}

/** What the contact form sends: the phone is left out when empty. */
export type ContactMessage = Record<string, string | undefined>;

/** POST /contact: the contact form's message; 422 answers carry the field messages. */
export function sendContactMessage(api: Api, body: ContactMessage) {
  return api.post<{ id: number }>("/contact", body);
}
