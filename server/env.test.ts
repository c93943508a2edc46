import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.ts";

describe("parseEnv", () => {
  it("has working defaults, so npm start needs no configuration", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe("./data");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PUBLIC_URL).toBe("http://localhost:3000");
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" }).DATABASE_URL).toBeUndefined();
  });

  it("lists every invalid variable in one readable message", () => {
    expect(() => parseEnv({ PORT: "eighty", DATABASE_URL: "mysql://x", SHOP_EMAIL: "nope" })).toThrowError(
      /Invalid configuration:\n {2}- PORT: .*\n {2}- DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL\n {2}- SHOP_EMAIL: /,
    );
  });
});

describe("production configuration", () => {
  it("requires a configured auth secret when DATABASE_URL points at a real server", () => {
    expect(() => parseEnv({ DATABASE_URL: "postgres://shop@db/shop" })).toThrowError(
      /BETTER_AUTH_SECRET: required/,
    );
    expect(
      parseEnv({ DATABASE_URL: "postgres://shop@db/shop", BETTER_AUTH_SECRET: "x".repeat(32) }).DATABASE_URL,
    ).toBe("postgres://shop@db/shop");
  });
});
