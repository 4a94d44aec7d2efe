import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { accessIdentity } from "../../worker/backend/services/console/staff-access";

/**
 * Cloudflare Access in front of the console: its signed token names the staff member. Checked
 * here with a key pair of our own standing in for the team's published keys.
 */
const env = { ACCESS_TEAM_DOMAIN: "https://souq.cloudflareaccess.com", ACCESS_AUD: "console-aud-tag" };
let keys: ReturnType<typeof createLocalJWKSet>;
let privateKey: CryptoKey;
let strangerKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  privateKey = pair.privateKey;
  strangerKey = (await generateKeyPair("RS256")).privateKey;
  keys = createLocalJWKSet({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256" }] });
});

function token(
  claims: Record<string, unknown> = {},
  opts: { key?: CryptoKey; aud?: string; iss?: string; exp?: number } = {},
) {
  return new SignJWT({ email: "owner@shop.example", ...claims })
    .setProtectedHeader({ alg: "RS256", kid: "k1" })
    .setIssuer(opts.iss ?? env.ACCESS_TEAM_DOMAIN)
    .setAudience(opts.aud ?? env.ACCESS_AUD)
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 600)
    .sign(opts.key ?? privateKey);
}

describe("Cloudflare Access tokens", () => {
  it("a token Access signed for the console's audience names the staff member", async () => {
    const who = await accessIdentity(env, await token(), keys);
    expect(who?.email).toBe("owner@shop.example");
  });

  it("a token for another application, from another issuer, expired, or signed by another key names no one", async () => {
    expect(await accessIdentity(env, await token({}, { aud: "another-app" }), keys)).toBeNull();
    expect(await accessIdentity(env, await token({}, { iss: "https://evil.cloudflareaccess.com" }), keys)).toBeNull();
    expect(await accessIdentity(env, await token({}, { exp: Math.floor(Date.now() / 1000) - 60 }), keys)).toBeNull();
    expect(await accessIdentity(env, await token({}, { key: strangerKey }), keys)).toBeNull();
    expect(await accessIdentity(env, "not.a.token", keys)).toBeNull();
  });

  it("a token without an email names no one, and nothing is trusted when Access is not configured", async () => {
    expect(await accessIdentity(env, await token({ email: undefined }), keys)).toBeNull();
    expect(await accessIdentity({}, await token(), keys)).toBeNull();
    expect(await accessIdentity({ ...env, ACCESS_AUD: "" }, await token(), keys)).toBeNull();
  });
});
