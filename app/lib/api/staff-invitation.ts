import type { InvitationLookup } from "../../../contract/staff-invitations";
import type { StaffRole } from "../../../contract/console";
import type { Api } from "./client";

/** The invitee's side of a staff invitation: what its link opens, and accepting it (signed in). */

/** POST /client/staff-invitation: the invitation a link's token opens, or why it opens none. */
export function lookupStaffInvitation(api: Api, token: string, signal?: AbortSignal) {
  return api.post<InvitationLookup>("/client/staff-invitation", { token }, { signal });
}

/** POST /client/staff-invitation/accept: the signed-in account joins the staff. */
export function acceptStaffInvitation(api: Api, token: string) {
  return api.post<{ role: StaffRole }>("/client/staff-invitation/accept", { token });
}
