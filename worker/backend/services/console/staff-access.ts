import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { Env } from "../../env";

/**
 * Cloudflare Access in front of the console (README "The operator console"). With
 * ACCESS_TEAM_DOMAIN (https://<team>.cloudflareaccess.com) and ACCESS_AUD (the Access
 * application's audience tag) set, Access signs every request it lets through with a JWT in
 * `Cf-Access-Jwt-Assertion`. It is verified here against the team's published keys (RS256,
 * issuer, audience, expiry); its email then names the staff member, and no one-time code is asked
 * (Access did the second step). Without those variables, the header is ignored.
 */
type AccessEnv = Pick<Env, "ACCESS_TEAM_DOMAIN" | "ACCESS_AUD">;

const keySets = new Map<string, JWTVerifyGetKey>();

function teamKeys(team: string): JWTVerifyGetKey {
  let keys = keySets.get(team);
  if (!keys) {
    // jose caches the key set and refetches it when a token names an unknown key (rotation).
    keys = createRemoteJWKSet(new URL(`${team}/cdn-cgi/access/certs`));
    keySets.set(team, keys);
  }
  return keys;
}

/** The Access-verified email and session end, or null (not configured, no token, or invalid). */
export async function accessIdentity(
  env: AccessEnv,
  token: string | undefined,
  keys?: JWTVerifyGetKey,
): Promise<{ email: string; expiresAt: number } | null> {
  const team = env.ACCESS_TEAM_DOMAIN?.trim().replace(/\/$/, "");
  const audience = env.ACCESS_AUD?.trim();
  if (!team || !audience || !token) return null;
  try {
    const { payload } = await jwtVerify(token, keys ?? teamKeys(team), {
      issuer: team,
      audience,
      algorithms: ["RS256"],
    });
    if (typeof payload.email !== "string" || !payload.email || typeof payload.exp !== "number") return null;
    return { email: payload.email, expiresAt: payload.exp };
  } catch {
    return null;
  }
}
