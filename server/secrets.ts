import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Env } from "./env.ts";

/**
 * The secret that signs session cookies. Configured in production (parseEnv requires it with DATABASE_URL); for a local
 * shop on its embedded database one is generated on first start and kept in DATA_DIR, so
 * `npm start` needs no setup and sessions survive restarts.
 */
export function resolveAuthSecret(env: Env): string {
  if (env.BETTER_AUTH_SECRET) return env.BETTER_AUTH_SECRET;
  const file = path.resolve(env.DATA_DIR, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** A key per purpose, so a value sealed for one use cannot be opened as another. */
const sealKey = (secret: string, purpose: string) =>
  createHash("sha256").update(`${purpose}:${secret}`).digest();

/**
 * Seals a secret that must wait in a table staff can read (a sign-in code, a mail's link) with AES-256-GCM
 * under a key derived from the auth secret: the row says what waits, and only the process can open it.
 */
export function sealSecret(secret: string, purpose: string, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealKey(secret, purpose), iv);
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString("base64url")).join(".");
}

/** Opens what sealSecret sealed for the same purpose; throws when it was altered or sealed for another. */
export function unsealSecret(secret: string, purpose: string, text: string): string {
  const [iv = "", tag = "", sealed = ""] = text.split(".");
  const decipher = createDecipheriv("aes-256-gcm", sealKey(secret, purpose), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString(
    "utf8",
  );
}
