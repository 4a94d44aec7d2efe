// Staff invitations: what the owner's staff page, the invitee's accept page and the backend
// agree on. An owner invites an email with a role; the invitee accepts from the emailed link,
// signed in to a verified shop account of that email.
import type { StaffRole } from "./console";

/** How long an invitation's link works. */
export const INVITATION_DAYS = 7;

/**
 * The key of the invitation link's fragment that carries its token:
 * `/{locale}/staff-invitation#invitation=<token>`. A fragment never reaches the server's logs nor
 * travels in a Referer (as contract/order-access.ts LINK_FRAGMENT_KEY); the page takes it out of
 * the address at once.
 */
export const INVITATION_FRAGMENT_KEY = "invitation";

/** The path of the accept page, under a locale. */
export const INVITATION_PATH = "/staff-invitation";

/** An invitation token as the backend mints it (lib/tokens.ts randomToken: 32 bytes, base64url). */
export const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const INVITATION_STATUSES = ["pending", "accepted", "revoked", "expired"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** An open invitation (pending, or expired and not yet resent or revoked), as the staff page lists it. */
export interface StaffInvitation {
  id: number;
  email: string;
  name: string;
  role: StaffRole;
  /** The language its email was written in. */
  lang: "en" | "ar";
  status: "pending" | "expired";
  expires_at: string;
  created_at: string;
  /** Who sent it (their email), null when that account is gone. */
  invited_by: string | null;
}

/**
 * What the holder of a link learns of its invitation (POST /client/staff-invitation): the role
 * and the invited address, masked ("n***@example.com"), while it is open; else only why it no
 * longer opens anything. An unknown or malformed token is "invalid", whatever was sent.
 */
export type InvitationLookup =
  | { state: "pending"; role: StaffRole; email: string; expires_at: string }
  | { state: "invalid" | "expired" | "revoked" | "accepted" };

/**
 * Why accepting was refused (the 422's field): `token` (no longer open), `email` (signed in to
 * another address's account), `verified` (this account's email is not verified yet), `staff`
 * (already on the staff).
 */
export const ACCEPT_REFUSALS = ["token", "email", "verified", "staff"] as const;
export type AcceptRefusal = (typeof ACCEPT_REFUSALS)[number];
