import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.ts";

describe("parseEnv", () => {
  it("has working defaults, so npm start needs no configuration", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe("./data");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PUBLIC_URL).toBe("http://localhost:3000");
    // Database connections outlive a quiet spell, so a sale does not start on new ones (decision 069).
    expect(env.DB_IDLE_TIMEOUT_MS).toBe(300_000);
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

describe("WhatsApp's Graph API version", () => {
  const whatsapp = { WHATSAPP_ACCESS_TOKEN: "token", WHATSAPP_PHONE_NUMBER_ID: "106540352242922" };
  it("is current by default, and one Meta no longer serves is refused at start", () => {
    expect(parseEnv(whatsapp).WHATSAPP_API_URL).toBe("https://graph.facebook.com/v26.0");
    expect(() =>
      parseEnv({ ...whatsapp, WHATSAPP_API_URL: "https://graph.facebook.com/v19.0" }),
    ).toThrowError(/WHATSAPP_API_URL: Graph API v19.0 is no longer served by Meta.*v26.0/);
    expect(() =>
      parseEnv({ ...whatsapp, WHATSAPP_API_URL: "https://graph.facebook.com/v20.0" }),
    ).toThrowError(/only until 2026-09-24/);
    expect(parseEnv({ ...whatsapp, WHATSAPP_API_URL: "https://graph.facebook.com/v25.0" })).toBeTruthy();
  });
});

describe("worker processes", () => {
  it("runs one process unless told otherwise, a number of workers, or one per core for auto", () => {
    expect(parseEnv({}).SHOP_WORKERS).toBe(1);
    expect(parseEnv({ SHOP_WORKERS: "" }).SHOP_WORKERS).toBe(1);
    expect(parseEnv({ SHOP_WORKERS: "2" }).SHOP_WORKERS).toBe(2);
    expect(parseEnv({ SHOP_WORKERS: "auto" }).SHOP_WORKERS).toBe(availableParallelism());
  });

  it("refuses anything else by name at start", () => {
    for (const value of ["0", "-1", "1.5", "two", "Auto", "2 ", "1000"]) {
      expect(() => parseEnv({ SHOP_WORKERS: value })).toThrowError(
        /SHOP_WORKERS: must be a whole number of worker processes \(1 or more\) or "auto"/,
      );
    }
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

describe("checkout configuration", () => {
  it("defaults to free shipping from ₹499, else ₹49, and cash on delivery up to ₹5,000", () => {
    const env = parseEnv({ FREE_SHIPPING_MIN_PAISE: "", COD_ENABLED: "" });
    expect(env).toMatchObject({
      FREE_SHIPPING_MIN_PAISE: 49_900,
      SHIPPING_FEE_PAISE: 4_900,
      COD_ENABLED: true,
      COD_MAX_ORDER_PAISE: 500_000,
      RAZORPAY_API_BASE: "https://api.razorpay.com",
      RAZORPAY_CHECKOUT_URL: "https://checkout.razorpay.com/v1/checkout.js",
    });
    expect(parseEnv({ COD_ENABLED: "false", SHIPPING_FEE_PAISE: "6900" })).toMatchObject({
      COD_ENABLED: false,
      SHIPPING_FEE_PAISE: 6_900,
    });
  });

  it("refuses rupees with paise in a paise amount, and half a Razorpay key", () => {
    expect(() => parseEnv({ SHIPPING_FEE_PAISE: "49.5" })).toThrowError(
      /SHIPPING_FEE_PAISE: must be whole paise/,
    );
    expect(() => parseEnv({ RAZORPAY_KEY_ID: "rzp_test_1" })).toThrowError(
      /RAZORPAY_KEY_SECRET: set both RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET, or neither/,
    );
  });
});

describe("accounts configuration", () => {
  it("reads ADMIN_EMAILS as a lower-cased list and refuses what is not an address", () => {
    expect(parseEnv({ ADMIN_EMAILS: " Owner@Shop.in, , staff@shop.in " }).ADMIN_EMAILS).toEqual([
      "owner@shop.in",
      "staff@shop.in",
    ]);
    expect(parseEnv({}).ADMIN_EMAILS).toEqual([]);
    expect(() => parseEnv({ ADMIN_EMAILS: "owner@shop.in, owner" })).toThrowError(
      /ADMIN_EMAILS: "owner" is not an e-mail address/,
    );
  });

  it("refuses a provider with only one of its client id and secret", () => {
    expect(() => parseEnv({ GITHUB_CLIENT_ID: "abc" })).toThrowError(/GITHUB_CLIENT_SECRET: required/);
    expect(() => parseEnv({ TWITTER_CLIENT_SECRET: "abc" })).toThrowError(/TWITTER_CLIENT_ID: required/);
    expect(parseEnv({ GOOGLE_CLIENT_ID: "id", GOOGLE_CLIENT_SECRET: "secret" }).GOOGLE_CLIENT_ID).toBe("id");
  });

  it("has rate limits that tests and shops can change, and checks proxy addresses", () => {
    expect(parseEnv({})).toMatchObject({
      AUTH_RATE_LIMIT_WINDOW: 60,
      AUTH_RATE_LIMIT_SIGN_IN: 5,
      AUTH_RATE_LIMIT_SIGN_UP: 5,
      AUTH_RATE_LIMIT_EMAIL: 3,
      TRUSTED_PROXIES: [],
    });
    expect(parseEnv({ AUTH_RATE_LIMIT_SIGN_IN: "2" }).AUTH_RATE_LIMIT_SIGN_IN).toBe(2);
    expect(() => parseEnv({ AUTH_RATE_LIMIT_EMAIL: "0" })).toThrowError(/AUTH_RATE_LIMIT_EMAIL/);
    expect(parseEnv({ TRUSTED_PROXIES: "10.0.0.1, 10.1.0.0/16, ::1" }).TRUSTED_PROXIES).toEqual([
      "10.0.0.1",
      "10.1.0.0/16",
      "::1",
    ]);
    expect(() => parseEnv({ TRUSTED_PROXIES: "10.0.0.0/40" })).toThrowError(
      /not an IP address or CIDR range/,
    );
    expect(() => parseEnv({ TRUSTED_PROXIES: "proxy.local" })).toThrowError(/TRUSTED_PROXIES/);
  });
});

describe(".env.example", () => {
  it("parses as it is shipped, blank lines included", async () => {
    const { readFileSync } = await import("node:fs");
    const source = Object.fromEntries(
      readFileSync(new URL("../.env.example", import.meta.url), "utf8")
        .split("\n")
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );
    const env = parseEnv(source);
    expect(env.AUTH_RATE_LIMIT_SIGN_IN).toBe(5);
    expect(parseEnv({ GOOGLE_ISSUER: "", AUTH_RATE_LIMIT_EMAIL: "" })).toMatchObject({
      GOOGLE_ISSUER: "https://accounts.google.com",
      AUTH_RATE_LIMIT_EMAIL: 3,
    });
  });
});

describe("Shiprocket configuration", () => {
  it("is all or nothing, with Shiprocket's API as the default base", () => {
    const env = parseEnv({});
    expect(env.SHIPROCKET_EMAIL).toBeUndefined();
    expect(env.SHIPROCKET_API_BASE).toBe("https://apiv2.shiprocket.in/v1/external");
    expect(() =>
      parseEnv({ SHIPROCKET_EMAIL: "api@shop.example", SHIPROCKET_PASSWORD: "secret" }),
    ).toThrowError(
      /SHIPROCKET_PICKUP_LOCATION: set SHIPROCKET_EMAIL, SHIPROCKET_PASSWORD and SHIPROCKET_PICKUP_LOCATION together/,
    );
    expect(() => parseEnv({ SHIPROCKET_WEBHOOK_TOKEN: "short" })).toThrowError(/SHIPROCKET_WEBHOOK_TOKEN/);
    const full = parseEnv({
      SHIPROCKET_EMAIL: "api@shop.example",
      SHIPROCKET_PASSWORD: "secret",
      SHIPROCKET_PICKUP_LOCATION: "Primary",
    });
    expect(full.SHIPROCKET_PICKUP_LOCATION).toBe("Primary");
  });
});
