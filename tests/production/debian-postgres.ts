import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, chown, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { findFreePort } from "../../server/db/embedded.ts";

/**
 * A throwaway cluster of Debian's PostgreSQL (installed by scripts/ensure-postgresql-nginx.sh), on a free
 * port, with a "shop" role and database: the external database a production host would have.
 */
export async function startDebianPostgres() {
  execFileSync("bash", [path.resolve(import.meta.dirname, "../../scripts/ensure-postgresql-nginx.sh")], {
    stdio: "inherit",
  });
  const version = execFileSync("ls", ["/usr/lib/postgresql"], { encoding: "utf8" }).trim().split("\n").at(-1);
  const bin = `/usr/lib/postgresql/${version}/bin`;
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot
    ? {
        uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" })),
        gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" })),
      }
    : {};
  const root = await mkdtemp(path.join(tmpdir(), "shop-debian-pg-"));
  await chmod(root, 0o755);
  const dataDir = path.join(root, "data");
  const passwordFile = path.join(root, "password");
  const password = randomBytes(12).toString("hex");
  await writeFile(passwordFile, `${password}\n`);
  if (asRoot && ids.uid !== undefined) {
    await chown(root, ids.uid, ids.gid ?? 0);
    await chown(passwordFile, ids.uid, ids.gid ?? 0);
  }
  execFileSync(
    `${bin}/initdb`,
    [
      "-D",
      dataDir,
      "-U",
      "shop",
      `--pwfile=${passwordFile}`,
      "-A",
      "scram-sha-256",
      "--no-sync",
      "-E",
      "UTF8",
    ],
    { ...ids, stdio: "ignore" },
  );
  const port = await findFreePort();
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn(
      `${bin}/postgres`,
      [
        "-D",
        dataDir,
        "-p",
        String(port),
        "-c",
        "listen_addresses=127.0.0.1",
        "-c",
        `unix_socket_directories=${root}`,
      ],
      { ...ids, stdio: ["ignore", "ignore", "pipe"] },
    );
    await new Promise<void>((resolve, reject) => {
      let log = "";
      server?.stderr?.on("data", (chunk) => {
        log += chunk;
        if (log.includes("ready to accept connections")) resolve();
      });
      server?.once("exit", () => reject(new Error(`PostgreSQL did not start:\n${log}`)));
    });
  };
  await start();
  const adminUrl = `postgres://shop:${password}@127.0.0.1:${port}/postgres`;
  execFileSync(`${bin}/psql`, [adminUrl, "-qc", "create database shop"], { stdio: "ignore" });
  return {
    version: Number(version),
    url: `postgres://shop:${password}@127.0.0.1:${port}/shop`,
    adminUrl,
    async stop() {
      const current = server;
      if (current && current.exitCode === null) {
        await new Promise((resolve) => {
          current.once("exit", resolve);
          current.kill("SIGINT");
        });
      }
      await rm(root, { recursive: true, force: true });
    },
  };
}
