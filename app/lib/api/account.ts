import type { Address, AddressInput } from "../../../contract/addresses";
import type { Account, SignedIn } from "../../../contract/account";
import type { Api } from "./client";

/**
 * The shopper's account: sign-in and registration, codes and passwords, the profile and the
 * saved addresses. Each takes the caller's client and answers the backend's envelope; failures
 * are the client's `ApiError`.
 */

/** A social sign-in provider the backend offers. */
export interface SocialPlatform {
  id: string;
  name: string;
  authorize_url: string;
}

/** Who a code goes to: an email or a phone (identifierPayload in lib/identity). */
export type Recipient = { email: string } | { phone: string };

/** A new password twice, as the password forms send it. */
export interface NewPassword {
  password: string;
  password_confirmation: string;
}

/** GET /client/auth/social/platforms: the social sign-in providers (none by default). */
export function listSocialPlatforms(api: Api) {
  return api.get<SocialPlatform[]>("/client/auth/social/platforms");
}

/** POST /client/auth/login with an email or a phone and the password. */
export function logIn(
  api: Api,
  credentials: { email: string; password: string } | { phone: string; password: string },
) {
  return api.post<SignedIn>("/client/auth/login", credentials);
}

/** POST /client/auth/register: a new account, signed in at once. */
export function register(
  api: Api,
  values: NewPassword & { name: string; email: string; phone: string; marketing?: boolean },
) {
  return api.post<SignedIn>("/client/auth/register", values);
}

/** POST /client/auth/resend-code: a fresh code for verifying or resetting. */
export function resendCode(api: Api, recipient: Recipient, purpose: string) {
  return api.post("/client/auth/resend-code", { ...recipient, purpose });
}

/** POST /client/auth/code-password-verify: checks a code; a reset answers the reset token. */
export function verifyCode(api: Api, recipient: Recipient, code: string, purpose: string) {
  return api.post<{ verified?: boolean; reset_token?: string }>("/client/auth/code-password-verify", {
    ...recipient,
    code,
    purpose,
  });
}

/** POST /client/auth/reset-password: sends a reset code to the email or phone. */
export function requestPasswordReset(api: Api, recipient: Recipient) {
  return api.post("/client/auth/reset-password", recipient);
}

/** POST /client/auth/update-password: the new password after a reset code. */
export function setNewPassword(api: Api, resetToken: string, values: NewPassword) {
  return api.post("/client/auth/update-password", { reset_token: resetToken, ...values });
}

/**
 * POST /client/auth/check-password (spec §7): whether the signed-in shopper's password is this
 * one; a wrong one answers `valid: false` with the backend's message. `Id` names the account the
 * tab believes it is signed in as (DESIGN §6), so a mismatched token is refused.
 */
export function checkPassword(api: Api, password: string, userId: string | null) {
  return api.post<{ valid: boolean }>("/client/auth/check-password", { password }, { id: userId ?? undefined });
}

/** POST /client/auth/change-password: a signed-in shopper's new password (the backend checks the current one again). */
export function changePassword(api: Api, values: NewPassword & { current_password: string }, userId: string | null) {
  return api.post("/client/auth/change-password", values, { id: userId ?? undefined });
}

/** GET /client/auth/profile: the signed-in shopper. */
export function getProfile(api: Api) {
  return api.get<Account>("/client/auth/profile");
}

/** POST /client/auth/profile: saves name, email and phone; a new email waits as `pending_email`. */
export function updateProfile(
  api: Api,
  values: { name: string; email: string; phone: string; current_password?: string; code?: string },
) {
  return api.post<Account>("/client/auth/profile", values);
}

/** GET /client/addresses: the saved addresses (a caller may read them as a narrower shape). */
export function listAddresses<A = Address>(api: Api) {
  return api.get<A[]>("/client/addresses");
}

/** POST /client/addresses: saves a new address. */
export function addAddress(api: Api, address: AddressInput | Record<string, unknown>) {
  return api.post<Address>("/client/addresses", address);
}

/** PUT /client/addresses/{id}: changes a saved address. */
export function updateAddress(api: Api, id: number, address: AddressInput | Record<string, unknown>) {
  return api.put<Address>(`/client/addresses/${id}`, address);
}

/** DELETE /client/addresses/{id}. */
export function deleteAddress(api: Api, id: number) {
  return api.delete(`/client/addresses/${id}`);
}
