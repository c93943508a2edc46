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

describe("LOG_FILE", () => {
  it("sends both loggers' lines to the file instead of stdout", () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "shop-log-")), "shop.log");
    const run = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        "--input-type=module",
        "-e",
        `const { log, accessLog } = await import(${JSON.stringify(path.resolve(import.meta.dirname, "log.ts"))});
         log.info("started"); accessLog.info({ status: 200 }, "request");`,
      ],
      { env: { ...process.env, LOG_FILE: file, LOG_LEVEL: "info" }, encoding: "utf8" },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("");
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.msg)).toEqual(["started", "request"]);
  });
});
