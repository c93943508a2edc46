// npm run admin -- grant <email> | revoke <email>
// Uses the same configuration as the server: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR.
import { existsSync } from "node:fs";
import { setAdminRole } from "../server/admin/roles.ts";
import { isAdminEmail } from "../server/auth/account-data.ts";
import { createDb } from "../server/db/client.ts";
import { connectEmbeddedPostgres } from "../server/db/embedded.ts";
import { parseEnv } from "../server/env.ts";

const USAGE = "Usage: npm run admin -- grant <email>\n       npm run admin -- revoke <email>";

async function main() {
  const [command, email, ...extra] = process.argv.slice(2);
  if ((command !== "grant" && command !== "revoke") || !email || extra.length > 0) {
    console.error(USAGE);
    return 2;
  }
  if (existsSync(".env")) process.loadEnvFile(".env");
  const env = parseEnv();
  const embedded = env.DATABASE_URL ? undefined : await connectEmbeddedPostgres(env.DATA_DIR);
  const { db, pool } = createDb(env.DATABASE_URL ?? embedded?.url ?? "", { max: 1 });
  try {
    const change = await setAdminRole(db, email, command === "grant");
    switch (change.outcome) {
      case "no_such_account":
        console.error(`No account uses ${email}. The person must sign up first, then run this again.`);
        return 1;
      case "unchanged":
        console.log(`${change.email} is already ${change.role === "admin" ? "an admin" : "not an admin"}.`);
        break;
      case "changed":
        console.log(
          change.role === "admin"
            ? `${change.email} is now an admin.`
            : `${change.email} is no longer an admin; ${change.sessionsEnded} session(s) ended.`,
        );
    }
    if (command === "revoke" && isAdminEmail(env, email)) {
      console.warn(
        `Warning: ${email} is listed in ADMIN_EMAILS, which makes it an admin again at its next sign-in. Remove it there too.`,
      );
    }
    return 0;
  } finally {
    await pool.end();
    await embedded?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
