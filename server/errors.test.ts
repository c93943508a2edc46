import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./errors.ts";

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("finds a lost connection however deep a library wrapped it", () => {
    // Better Auth wraps Drizzle's query error, which wraps pg's.
    const terminated = pgError("57P01", "terminating connection due to administrator command");
    const drizzle = new Error("Failed query: select ... params: secret-token", { cause: terminated });
    const betterAuth = new Error("Failed to get session", { cause: drizzle });
    expect(isDatabaseUnavailable(betterAuth)).toBe(true);
    expect(
      isDatabaseUnavailable(new Error("x", { cause: new Error("Connection terminated unexpectedly") })),
    ).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([pgError("ECONNREFUSED", "connect")]))).toBe(true);
    expect(isDatabaseUnavailable(pgError("08006", "connection failure"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Query read timeout"))).toBe(true);
    // A stopped server's Unix socket is no longer in its folder.
    const noSocket = Object.assign(new Error("connect ENOENT /data/postgres/.s.PGSQL.5432"), {
      code: "ENOENT",
      syscall: "connect",
    });
    expect(isDatabaseUnavailable(noSocket)).toBe(true);
  });

  it("leaves real bugs and constraint violations alone", () => {
    expect(isDatabaseUnavailable(pgError("23505", "duplicate key value"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    // A file the shop reads that is missing is a bug, not a database that is away.
    const missingFile = Object.assign(new Error("ENOENT: no such file"), { code: "ENOENT", syscall: "open" });
    expect(isDatabaseUnavailable(missingFile)).toBe(false);
    const loop = new Error("loop") as Error & { cause?: unknown };
    loop.cause = loop;
    expect(isDatabaseUnavailable(loop)).toBe(false);
  });
});
