import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { runServer } from "../scripts/build-server.ts";
import { findFreePort, startEmbeddedPostgres } from "../server/db/embedded.ts";
import { TEST_AUTH_SECRET } from "../tests/database.ts";

/**
 * A shop process's start, from spawn to its first 200 from /api/ready, on a database already migrated and
 * seeded: the server as `npm start` runs it (built, `dist-node/`) against the baseline, the same sources run
 * through tsx's loader as before the build (decision 092, "A start from built JavaScript"). Each start counts
 * the process's own CPU-seconds (from /proc, its threads included) and its wall time; rounds alternate.
 */
const ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? 5);
const root = path.resolve(import.meta.dirname, "..");
const FROM_SOURCE = ["--import", "tsx", "server/main.ts"];

type Start = { cpuSeconds: number; wallSeconds: number };

/** utime + stime of `pid`, in seconds (clock ticks of 1/100 s on Linux). */
async function cpuSecondsOf(pid: number) {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function startOnce(args: string[], databaseUrl: string): Promise<Start> {
  const port = await findFreePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), "shop-start-bench-"));
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: "ignore",
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      BETTER_AUTH_SECRET: TEST_AUTH_SECRET,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`the shop exited with ${child.exitCode} before it was ready`);
      if (Date.now() > deadline) throw new Error("the shop was not ready within 60 s");
      const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).catch(() => undefined);
      if (ready?.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const wallSeconds = (performance.now() - started) / 1000;
    return { cpuSeconds: await cpuSecondsOf(child.pid ?? 0), wallSeconds };
  } finally {
    child.kill("SIGTERM");
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export default async function startBench() {
  const dataDir = await mkdtemp(path.join(tmpdir(), "shop-start-bench-db-"));
  const postgres = await startEmbeddedPostgres(dataDir);
  try {
    // The first start migrates and seeds; the measured ones find the database ready, as a restart does.
    await startOnce(runServer, postgres.url);
    const starts: Record<"source" | "built", Start[]> = { source: [], built: [] };
    for (let round = 0; round < ROUNDS; round++) {
      starts.source.push(await startOnce(FROM_SOURCE, postgres.url));
      starts.built.push(await startOnce(runServer, postgres.url));
    }
    const cpu = (kind: keyof typeof starts) => median(starts[kind].map((start) => start.cpuSeconds));
    const wall = (kind: keyof typeof starts) => median(starts[kind].map((start) => start.wallSeconds));
    console.log(`\na shop process from spawn to ready, median of ${ROUNDS} each, alternated`);
    console.log(
      `  baseline sources through tsx: ${cpu("source").toFixed(2)} CPU-s, ${wall("source").toFixed(2)} s (1.00)`,
    );
    console.log(
      `  built (npm start): ${cpu("built").toFixed(2)} CPU-s (${(cpu("built") / cpu("source")).toFixed(2)} of ` +
        `baseline), ${wall("built").toFixed(2)} s (${(wall("built") / wall("source")).toFixed(2)} of baseline)`,
    );
  } finally {
    await postgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
