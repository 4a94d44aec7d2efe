import type { StaffRole } from "../../contract/console";
import type { Locale } from "../../contract/locale";
import type { Env } from "../env";

export type Lang = Locale;

/** A staff member calling the console (services/staff.ts). */
export interface StaffCaller {
  user_id: number;
  name: string;
  email: string;
  role: StaffRole;
  /** Whether the console session is open (the code was entered, or Cloudflare Access vouched). */
  elevated: boolean;
  via: "code" | "access" | null;
  /** When the console session ends (Unix seconds). */
  expiresAt: number | null;
  /**
   * Why the console cannot be opened with a code now, if it cannot: the account's email is not
   * the one its seat was granted for, or its password changed less than CONSOLE_FREEZE_SECONDS ago.
   */
  locked: StaffLock | null;
  /** With `locked` "password_changed": when the console may be opened again (Unix seconds). */
  frozenUntil: number | null;
}

export type StaffLock = "email_changed" | "password_changed";

/** Hono typing for the backend app: bindings, plus what its middleware puts on the context. */
export type BackendEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    /** From `content-language`: localized fields come back in this language. */
    lang: Lang;
    /** The 1/2 `device-type` header. */
    deviceType: 1 | 2;
    /** Set by `staffOnly` on console routes. */
    staff?: StaffCaller;
    /** The visitor's network key as the shop's edge vouched for it (edge-caller.ts); unset otherwise. */
    visitorNetwork?: string;
  };
};
