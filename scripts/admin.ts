// npm run admin -- grant <email> [--role staff|owner] | revoke <email>
// Uses the same configuration as the server: DATABASE_URL, or the embedded PostgreSQL in DATA_DIR.
import { userInfo } from "node:os";
import type { UserRole } from "../common/account.ts";
import { describeRoleChange, setRole } from "../server/admin/roles.ts";
import { isAdminEmail } from "../server/auth/account-data.ts";
import { runScript, withShopDatabase } from "./shop-database.ts";

const USAGE =
  "Usage: npm run admin -- grant <email> [--role staff|owner]   (staff unless --role owner)\n" +
  "       npm run admin -- revoke <email>";

/** grant defaults to staff: the smaller grant is the safer one to get by forgetting a flag. */
function parse(args: string[]): { email: string; role: UserRole } | null {
  const [command, email, ...rest] = args;
  if (!email || email.startsWith("--")) return null;
  if (command === "revoke") return rest.length === 0 ? { email, role: "customer" } : null;
  if (command !== "grant") return null;
  if (rest.length === 0) return { email, role: "staff" };
  if (rest.length === 2 && rest[0] === "--role" && (rest[1] === "staff" || rest[1] === "owner"))
    return { email, role: rest[1] };
  return null;
}

async function main() {
  const parsed = parse(process.argv.slice(2));
  if (!parsed) {
    console.error(USAGE);
    return 2;
  }
  const { email, role } = parsed;
  // The audit log names the command line and the system user who ran it: no shop account is signed in.
  const who = userInfo().username;
  return withShopDatabase({ maxConnections: 1 }, async ({ db, env }) => {
    const change = await setRole(db, email, role, { id: `cli:${who}`, email: `npm run admin (${who})` });
    const said = describeRoleChange(change, email);
    if (change.outcome === "no_such_account" || change.outcome === "last_owner") {
      console.error(said);
      return 1;
    }
    console.log(said);
    if (role !== "owner" && isAdminEmail(env, email)) {
      console.warn(
        `Warning: ${email} is listed in ADMIN_EMAILS, which makes it an owner again at its next sign-in. Remove it there too.`,
      );
    }
    return 0;
  });
}

runScript(main);
