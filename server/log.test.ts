import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { redact, serializeError } from "./log.ts";

describe("log redaction", () => {
  it("keeps query parameters, passwords in URLs and tokens in query strings out of log lines", () => {
    const drizzle = new Error(
      'Failed query: select "id" from "session" where "token" = $1\nparams: AbC123sessionToken',
    );
    const wrapped = new Error("Failed to get session", { cause: drizzle });
    const line = JSON.stringify(serializeError(wrapped));
    expect(line).not.toContain("AbC123sessionToken");
    expect(line).toContain("Failed query");
    expect(redact("postgres://shop:hunter2@db:5432/shop")).toBe("postgres://shop:[redacted]@db:5432/shop");
    expect(redact("GET /api/auth/magic-link/verify?token=abc.def&callbackURL=/")).not.toContain("abc.def");
    expect(redact("Authorization: Bearer s3cr3t-token")).not.toContain("s3cr3t");
  });

  it("serializes an already serialized error unchanged", () => {
    const once = serializeError(new Error("x"));
    expect(serializeError(once)).toBe(once);
  });
});

/** Runs `code` in a node process of its own with `log` and `accessLog` imported. */
function runWithLog(code: string, env: Record<string, string>) {
  return spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `const { log, accessLog } = await import(${JSON.stringify(path.resolve(import.meta.dirname, "log.ts"))});
       ${code}`,
    ],
    { env: { ...process.env, LOG_LEVEL: "info", ...env }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
  );
}

const parsedLines = (text: string) =>
  text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));

describe("LOG_FILE", () => {
  it("sends both loggers' lines to the file instead of stdout", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "shop-log-")), "shop.log");
    const run = runWithLog(`log.info("started"); accessLog.info({ status: 200 }, "request");`, {
      LOG_FILE: file,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("");
    expect(parsedLines(readFileSync(file, "utf8")).map((line) => line.msg)).toEqual(["started", "request"]);
  });
});

describe("lines written asynchronously", () => {
  // A process that ends at once, as one that cannot start does (log.fatal, then process.exit).
  const burstThenExit = `for (let index = 0; index < 5000; index++) accessLog.info({ index }, "request");
    log.fatal("could not start"); process.exit(1);`;

  it("are all on stdout, whole and in order, when the process exits right after them", () => {
    const run = runWithLog(burstThenExit, {});
    expect(run.status).toBe(1);
    const lines = parsedLines(run.stdout);
    expect(lines).toHaveLength(5001);
    expect(lines.slice(0, 5000).every((line, index) => line.index === index)).toBe(true);
    expect(lines.at(-1)?.msg).toBe("could not start");
  });

  it("are all in LOG_FILE too, even when the process exits before the file is open", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "shop-log-")), "shop.log");
    const run = runWithLog(burstThenExit, { LOG_FILE: file });
    expect(run.status).toBe(1);
    const lines = parsedLines(readFileSync(file, "utf8"));
    expect(lines).toHaveLength(5001);
    expect(lines.at(-1)?.msg).toBe("could not start");
  });
});
