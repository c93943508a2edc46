import { z } from "zod";

// Empty strings come from blank lines in .env files and CI variables; they mean "not set".
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: optional(
    z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL"),
  ),
  PUBLIC_URL: optional(z.url()),
  SHOP_NAME: z.string().min(1).default("Prakriti Naturals"),
  SHOP_PHONE: z.string().min(6).default("+91 98765 43210"),
  SHOP_EMAIL: z.email().default("care@prakritinaturals.in"),
});

export type Env = z.infer<typeof envSchema> & { PUBLIC_URL: string };

/** Parses the environment once; a bad value yields a readable list instead of a stack trace. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const env = result.data;
  return { ...env, PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}` };
}
