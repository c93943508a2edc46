import { spawn } from "node:child_process";
import { once } from "node:events";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { findFreePort, isPostmasterOf, startEmbeddedPostgres } from "./embedded.ts";

describe("a stale postmaster.pid", () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it("naming a process that is not our postgres gets that process left alone", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "shop-stale-pid-"));
    folders.push(dataDir);
    const first = await startEmbeddedPostgres(dataDir);
    await first.stop();
    // An unrelated process now holds the PID the file names.
    const bystander = spawn("sleep", ["30"]);
    const clusterDir = path.join(dataDir, "postgres");
    await mkdir(clusterDir, { recursive: true });
    await writeFile(path.join(clusterDir, "postmaster.pid"), `${bystander.pid}\n${clusterDir}\n`);
    expect(await isPostmasterOf(bystander.pid ?? 0, clusterDir)).toBe(false);

    const second = await startEmbeddedPostgres(dataDir);
    try {
      expect(bystander.exitCode).toBeNull();
      expect(bystander.signalCode).toBeNull();
      const pid = Number((await readFile(path.join(clusterDir, "postmaster.pid"), "utf8")).split("\n")[0]);
      expect(await isPostmasterOf(pid, clusterDir)).toBe(true);
      expect(await isPostmasterOf(pid, `${clusterDir}-other`)).toBe(false);
    } finally {
      await second.stop();
      bystander.kill();
    }
  });
});

describe("the embedded cluster's address", () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  const serverAddress = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<{ address: string | null }>("select inet_server_addr() as address")).rows[0]
        ?.address;
    } finally {
      await client.end();
    }
  };

  it("is its Unix socket, in the cluster's own folder, and 127.0.0.1 still answers", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "shop-socket-"));
    folders.push(dataDir);
    const cluster = await startEmbeddedPostgres(dataDir);
    try {
      expect(new URL(cluster.url).searchParams.get("host")).toBe(path.join(dataDir, "postgres"));
      // A connection over a Unix socket has no server address.
      expect(await serverAddress(cluster.url)).toBeNull();
      expect(await serverAddress(cluster.url.replace(/\?.*$/, ""))).toBe("127.0.0.1");
    } finally {
      await cluster.stop();
    }
  });

  it("is 127.0.0.1 when the folder's path is too long for a socket", async () => {
    const parent = await mkdtemp(path.join(tmpdir(), "shop-socket-"));
    folders.push(parent);
    // As root, PostgreSQL runs as another user, who must be able to pass through the parent too.
    await chmod(parent, 0o711);
    const dataDir = path.join(parent, "d".repeat(90));
    const cluster = await startEmbeddedPostgres(dataDir);
    try {
      expect(cluster.url).not.toContain("?host=");
      expect(await serverAddress(cluster.url)).toBe("127.0.0.1");
    } finally {
      await cluster.stop();
    }
  });
});

describe("a cluster that cannot start", () => {
  it("tries another port when the one found free is taken before PostgreSQL binds it", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "shop-port-taken-"));
    const holder = createServer().listen(0, "127.0.0.1");
    await once(holder, "listening");
    const { port: taken } = holder.address() as AddressInfo;
    const offered: number[] = [];
    const freePort = async () => {
      const port = offered.length === 0 ? taken : await findFreePort();
      offered.push(port);
      return port;
    };
    try {
      const cluster = await startEmbeddedPostgres(dataDir, () => {}, { freePort });
      try {
        expect(offered[0]).toBe(taken);
        expect(cluster.port).toBe(offered[1]);
        const client = new pg.Client({ connectionString: cluster.url });
        await client.connect();
        expect((await client.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
        await client.end();
      } finally {
        await cluster.stop();
      }
    } finally {
      holder.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("fails with what PostgreSQL said, not with nothing", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "shop-no-start-"));
    // Another program holds the port the cluster is told to listen on.
    const holder = createServer().listen(0, "127.0.0.1");
    await once(holder, "listening");
    const { port } = holder.address() as AddressInfo;
    try {
      const failure = await startEmbeddedPostgres(dataDir, () => {}, { port }).then(
        async (started) => {
          await started.stop();
          return undefined;
        },
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(Error);
      expect((failure as Error).message).toMatch(
        new RegExp(`did not start on port ${port}: [^]*could not (bind|create listen socket)`),
      );
    } finally {
      holder.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
