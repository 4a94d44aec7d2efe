import type { Env } from "../../env";
import { base64Of, bytesOfBase64 } from "./csr";

/**
 * The unit's private key and ZATCA's secrets are stored encrypted (AES-GCM, a fresh IV each) under
 * a key derived from EINVOICE_KEY_SECRET, so a copy of the database alone signs nothing. The secret
 * fails closed outside development and test, as the shop's other signing secrets do.
 */
const DEV_SECRET = "development-einvoice-key-secret";

export function einvoiceKeySecret(env: Pick<Env, "EINVOICE_KEY_SECRET" | "ENVIRONMENT">): string {
  if (env.EINVOICE_KEY_SECRET) return env.EINVOICE_KEY_SECRET;
  if (env.ENVIRONMENT === "development" || env.ENVIRONMENT === "test") return DEV_SECRET;
  throw new Error("EINVOICE_KEY_SECRET is not set: set it with `wrangler secret put EINVOICE_KEY_SECRET`.");
}

async function aesKey(env: Pick<Env, "EINVOICE_KEY_SECRET" | "ENVIRONMENT">): Promise<CryptoKey> {
  const material = new TextEncoder().encode(`einvoice-at-rest:${einvoiceKeySecret(env)}`);
  const digest = await crypto.subtle.digest("SHA-256", material);
  return crypto.subtle.importKey("raw", digest, "AES-GCM", false, ["encrypt", "decrypt"]);
}

/** "v1.<iv>.<ciphertext>", base64 parts. */
export async function sealSecret(
  env: Pick<Env, "EINVOICE_KEY_SECRET" | "ENVIRONMENT">,
  plain: Uint8Array<ArrayBuffer>,
): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await aesKey(env), plain));
  return `v1.${base64Of(iv)}.${base64Of(sealed)}`;
}

export async function openSecret(
  env: Pick<Env, "EINVOICE_KEY_SECRET" | "ENVIRONMENT">,
  sealed: string,
): Promise<Uint8Array> {
  const [version, iv, data] = sealed.split(".");
  if (version !== "v1" || !iv || !data) throw new Error("Unreadable sealed secret");
  return new Uint8Array(
    await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytesOfBase64(iv) }, await aesKey(env), bytesOfBase64(data)),
  );
}

export const sealText = (env: Pick<Env, "EINVOICE_KEY_SECRET" | "ENVIRONMENT">, text: string) =>
  sealSecret(env, new TextEncoder().encode(text));
export const openText = async (env: Pick<Env, "EINVOICE_KEY_SECRET" | "ENVIRONMENT">, sealed: string) =>
  new TextDecoder().decode(await openSecret(env, sealed));
