import { describe, expect, it } from "vitest";
import { COMMON_PASSWORDS } from "../../worker/backend/services/accounts/common-passwords";
import {
  constantTimeEqual,
  hashPassword,
  isCommonPassword,
  needsRehash,
  parsePasswordHash,
  passwordProblem,
  pepper,
  PBKDF2_ITERATIONS,
  verifyPassword,
} from "../../worker/backend/services/accounts/password";

const testEnv = { ENVIRONMENT: "test" as const, AUTH_PEPPER: "unit-pepper" };

describe("password hashing", () => {
  it("uses at most 100,000 PBKDF2 iterations, the most production Workers accept", () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    expect(PBKDF2_ITERATIONS).toBe(100_000);
  });

  it("stores pbkdf2-sha256$<iterations>$<16-byte salt>$<32-byte hash>, never the password", async () => {
    const stored = await hashPassword(testEnv, "a long passphrase");
    expect(stored).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(stored).not.toContain("passphrase");
    const parsed = parsePasswordHash(stored)!;
    expect(parsed.iterations).toBeLessThanOrEqual(100_000);
    expect(parsed.salt).toHaveLength(16);
    expect(parsed.hash).toHaveLength(32);
  });

  it("verifies the right password and refuses a wrong one", async () => {
    const stored = await hashPassword(testEnv, "a long passphrase");
    expect(await verifyPassword(testEnv, "a long passphrase", stored)).toBe(true);
    expect(await verifyPassword(testEnv, "a long passphrasE", stored)).toBe(false);
    expect(await verifyPassword(testEnv, "", stored)).toBe(false);
  });

  it("salts every hash, so the same password hashes differently", async () => {
    const a = await hashPassword(testEnv, "same password here");
    const b = await hashPassword(testEnv, "same password here");
    expect(a).not.toBe(b);
  });

  it("mixes in the pepper: a hash does not verify under another pepper", async () => {
    const stored = await hashPassword(testEnv, "a long passphrase");
    expect(await verifyPassword({ ...testEnv, AUTH_PEPPER: "another-pepper" }, "a long passphrase", stored)).toBe(
      false,
    );
  });

  it("requires the pepper secret in production and has a default only for development and test", () => {
    expect(() => pepper({ ENVIRONMENT: "production" })).toThrow(/AUTH_PEPPER/);
    expect(pepper({ ENVIRONMENT: "production", AUTH_PEPPER: "secret" })).toBe("secret");
    expect(pepper({ ENVIRONMENT: "development" })).toBeTruthy();
    expect(pepper({ ENVIRONMENT: "test" })).toBe(pepper({ ENVIRONMENT: "development" }));
  });

  it("refuses malformed hashes and hashes above the iteration maximum", async () => {
    const stored = await hashPassword(testEnv, "a long passphrase");
    const [, , salt, hash] = stored.split("$");
    expect(parsePasswordHash(`pbkdf2-sha256$100001$${salt}$${hash}`)).toBeNull();
    expect(parsePasswordHash(`bcrypt$10$${salt}$${hash}`)).toBeNull();
    expect(parsePasswordHash("pbkdf2-sha256$100000$!!$??")).toBeNull();
    expect(parsePasswordHash("")).toBeNull();
    expect(await verifyPassword(testEnv, "a long passphrase", `pbkdf2-sha256$200000$${salt}$${hash}`)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
    expect(needsRehash(`pbkdf2-sha256$50000$${salt}$${hash}`)).toBe(true);
  });

  it("compares in constant time over the whole length", () => {
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2]))).toBe(false);
  });
});

describe("password policy", () => {
  it("accepts 8 to 128 characters with no composition rules", () => {
    expect(passwordProblem("abcdefgh".replace("abc", "xyz"))).toBeNull();
    expect(passwordProblem("correct horse battery staple")).toBeNull();
    expect(passwordProblem("كلمة سر طويلة")).toBeNull();
    expect(passwordProblem("z".repeat(128))).toBeNull();
  });

  it("refuses fewer than 8 or more than 128 characters, counting characters not bytes", () => {
    expect(passwordProblem("short12")).toBe("too_short");
    expect(passwordProblem("z".repeat(129))).toBe("too_long");
    // Seven emoji are 14 UTF-16 units but seven characters.
    expect(passwordProblem("🔒".repeat(7))).toBe("too_short");
  });

  it("refuses the most common passwords, whatever their case", () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThanOrEqual(300);
    for (const common of ["password", "12345678", "qwerty123", "iloveyou", "PASSWORD1", "Sunshine"]) {
      expect(isCommonPassword(common), common).toBe(true);
      expect(passwordProblem(common), common).toBe("common");
    }
    for (const entry of COMMON_PASSWORDS) expect(entry).toBe(entry.toLowerCase());
  });
});
