import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isPostmasterOf, startEmbeddedPostgres } from "./embedded.ts";

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
