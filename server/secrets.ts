import { randomBytes } from "node:crypto";
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
