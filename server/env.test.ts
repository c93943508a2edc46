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
