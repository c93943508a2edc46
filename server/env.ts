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
  BETTER_AUTH_SECRET: optional(z.string().min(32, "must be at least 32 characters")),
  SMTP_URL: optional(z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")),
  MAIL_FROM: optional(z.email()),
  SHOP_NAME: z.string().min(1).default("Prakriti Naturals"),
  SHOP_PHONE: z.string().min(6).default("+91 98765 43210"),
  SHOP_EMAIL: z.email().default("care@prakritinaturals.in"),
  CONTACT_FORWARD_URL: optional(z.url()),
  CONTACT_FORWARD_EMAIL: optional(z.email()),
  TRUST_PROXY: z.preprocess((value) => (value === "" ? undefined : value), z.stringbool().default(false)),
});

export type Env = z.infer<typeof envSchema> & { PUBLIC_URL: string };

// A shop on its own PostgreSQL server is a production shop: its cookie-signing secret must be configured,
// never generated into a data folder that a second instance would not share.
const productionRules = envSchema.superRefine((env, context) => {
  if (env.DATABASE_URL && !env.BETTER_AUTH_SECRET) {
    context.addIssue({
      code: "custom",
      path: ["BETTER_AUTH_SECRET"],
      message: "required when DATABASE_URL is set (32+ random characters, e.g. `openssl rand -base64 32`)",
    });
  }
});

/** Parses the environment once; a bad value yields a readable list instead of a stack trace. */
export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const result = productionRules.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const env = result.data;
  return { ...env, PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}` };
}
