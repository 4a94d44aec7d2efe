import { Hono } from "hono";
import * as v from "valibot";
import type { Account } from "../../contract/account";
import type { SessionUser } from "../../contract/edge";
import { validate } from "../../contract/server/validate";
import type { HonoEnv } from "../env";
import { callBackendOrUnavailable } from "../backend-client";
import { endSession, readSession, sessionUserOf, startSession } from "./session";

/** The stored user: GET /api/get-user, POST /api/add-user, and logout. */
export const userApi = new Hono<HonoEnv>();

/** Answers from KV, re-checked with the backend at most every SESSION_RECHECK_SECONDS (L6). */
userApi.get("/get-user", async (c) => {
  c.header("cache-control", "no-store");
  const session = await readSession(c);
  if (!session) return c.json({ message: "User not authenticated" }, 401);
  return c.json({ data: session.user });
});

const addUserBody = v.object({
  token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{20,128}$/, "The token is not valid.")),
  // What the browser believes; only the backend's answer for the token is stored.
  user: v.looseObject({ id: v.union([v.number(), v.pipe(v.string(), v.maxLength(64))]) }),
});

/**
 * Saves the signed-in user on the own server (spec §4). The token is checked against the backend
 * profile before anything is stored, and the user kept is the backend's, never the posted one.
 */
userApi.post(
  "/add-user",
  validate("json", () => addUserBody),
  async (c) => {
    const { token } = c.req.valid("json");
    const res = await callBackendOrUnavailable(c, "/client/auth/profile", {
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.status === 401) return c.json({ message: "User not authenticated" }, 401);
    if (!res.ok) return c.json({ message: "The account service is unavailable." }, 503);
    const { data } = (await res.json()) as { data: Account };
    const user: SessionUser = sessionUserOf(data);
    await startSession(c, { user, token });
    return c.json({ data: user });
  },
);

/** Ends the own-server session and revokes the backend token; answering the same with or without one. */
userApi.post("/logout", async (c) => {
  const session = await endSession(c);
  if (session) {
    try {
      await callBackendOrUnavailable(c, "/client/auth/logout", {
        method: "POST",
        headers: { authorization: `Bearer ${session.token}` },
      });
    } catch (error) {
      // The token stays valid until its expiry if the backend is unreachable; the cookie is gone either way.
      console.error(JSON.stringify({ level: "error", event: "logout.revoke_failed", error: String(error) }));
    }
  }
  return c.json({ message: "Logged out" });
});
