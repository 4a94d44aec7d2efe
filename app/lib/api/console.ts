import type { AuditEntry, ConsoleListMeta, StaffMe, StaffMember, StaffRole } from "../../../contract/console";
import type { StaffInvitation } from "../../../contract/staff-invitations";
import type { Api, Envelope } from "./client";

/**
 * The operator console's session, staff and audit log. The console's other areas have
 * their own modules beside this one (console-catalogue.ts, console-orders.ts, ...).
 */

/** A console list's answer: its rows and how they were sorted and paged. */
export type ConsoleList<T> = Envelope<T[]> & { meta: ConsoleListMeta };

/** What a console list page passes through from its URL: page, sort, direction and filters. */
export type ListParams = Record<string, string | number | undefined>;

/** The list parameters of a console page's URL, as the backend's list query takes them. */
export function listParams(url: URL, keys: readonly string[] = []): ListParams {
  const out: ListParams = {};
  for (const key of ["page", "per_page", "sort", "dir", ...keys]) {
    const value = url.searchParams.get(key);
    if (value) out[key] = value;
  }
  return out;
}

/** GET /admin/session: the staff member at the console (404 for anyone else). */
export function getConsoleSession(api: Api) {
  return api.get<StaffMe>("/admin/session");
}

/** POST /admin/session/code: sends the console code to the staff member's email. */
export function sendConsoleCode(api: Api) {
  return api.post<{ sent: boolean }>("/admin/session/code");
}

/** POST /admin/session: enters the code; the sign-in becomes a console session. */
export function openConsole(api: Api, code: string) {
  return api.post<StaffMe>("/admin/session", { code });
}

/** DELETE /admin/session: closes the console; the shop sign-in stays. */
export function closeConsole(api: Api) {
  return api.delete<null>("/admin/session");
}

export function listStaff(api: Api, params: ListParams) {
  return api.get<StaffMember[]>("/admin/staff", { query: params }) as Promise<ConsoleList<StaffMember>>;
}

/** GET /admin/staff/invitations: the open invitations (pending or expired), newest first. */
export function listStaffInvitations(api: Api) {
  return api.get<StaffInvitation[]>("/admin/staff/invitations");
}

/** POST /admin/staff/invitations: emails `email` a link to join as `role` (the email in `lang`). */
export function inviteStaff(api: Api, invitation: { email: string; role: StaffRole; name: string; lang: "en" | "ar" }) {
  return api.post<StaffInvitation>("/admin/staff/invitations", invitation);
}

/** POST /admin/staff/invitations/:id/resend: a new link; the old one stops working. */
export function resendStaffInvitation(api: Api, id: number) {
  return api.post<StaffInvitation>(`/admin/staff/invitations/${id}/resend`);
}

/** DELETE /admin/staff/invitations/:id: the invitation's link stops working. */
export function revokeStaffInvitation(api: Api, id: number) {
  return api.delete<null>(`/admin/staff/invitations/${id}`);
}

export function changeStaffRole(api: Api, userId: number, role: StaffRole) {
  return api.put<{ user_id: number; role: StaffRole }>(`/admin/staff/${userId}`, { role });
}

/** PUT /admin/staff/:id/alerts: whether the member is emailed about new paid orders and return requests. */
export function setStaffAlerts(api: Api, userId: number, alerts: { orders: boolean; returns: boolean }) {
  return api.put<{ user_id: number; alert_orders: boolean; alert_returns: boolean }>(
    `/admin/staff/${userId}/alerts`,
    alerts,
  );
}

/**
 * PUT /admin/staff/:id/contact: an owner sets (or confirms) a staff member's email, which the seat
 * is pinned to, and their phone (absent: kept; "": removed).
 */
export function changeStaffContact(api: Api, userId: number, email: string, phone?: string) {
  return api.put<{ user_id: number; email: string; phone: string | null; staff_email: string }>(
    `/admin/staff/${userId}/contact`,
    phone === undefined ? { email } : { email, phone },
  );
}

export function removeStaff(api: Api, userId: number) {
  return api.delete<null>(`/admin/staff/${userId}`);
}

export function listAudit(api: Api, params: ListParams) {
  return api.get<AuditEntry[]>("/admin/audit", { query: params }) as Promise<ConsoleList<AuditEntry>>;
}
