import { describe, expect, it } from "vitest";
import { attemptAuth, authErrorMessage, redirectErrorMessage } from "./auth-errors.ts";

describe("sign-in messages", () => {
  it("gives one message for a wrong password and an unknown address (the server answers the same)", () => {
    expect(authErrorMessage({ status: 401, code: "INVALID_EMAIL_OR_PASSWORD" })).toBe(
      "The e-mail or password is incorrect. Check both and try again.",
    );
  });

  it("sends the shopper to e-mail sign-in while the shop's codes by SMS are paused", () => {
    expect(authErrorMessage({ status: 503, code: "SMS_PAUSED" })).toContain("e-mail");
  });

  it("says how long to wait after too many attempts", () => {
    expect(authErrorMessage({ status: 429, retryAfterSeconds: 42 })).toBe(
      "Too many attempts. Please wait 42 seconds and try again.",
    );
    expect(authErrorMessage({ status: 429 })).toBe("Too many attempts. Please wait a minute and try again.");
    expect(authErrorMessage({ status: 429, code: "SIGN_IN_PAUSED", retryAfterSeconds: 900 })).toBe(
      "Too many attempts for this address. Please wait 15 minutes, or sign in with an e-mail link.",
    );
    expect(authErrorMessage({ status: 429, code: "TOO_MANY_EMAILS", retryAfterSeconds: 61 })).toMatch(
      /check your inbox, or wait 61 seconds/,
    );
  });

  it("treats an expired and a used link alike, and maps provider errors", () => {
    expect(redirectErrorMessage("INVALID_TOKEN")).toBe(
      "This link has expired or has already been used. Please ask for a new one.",
    );
    expect(redirectErrorMessage("access_denied")).toBe(
      "You cancelled signing in with the provider. Nothing was changed; try again or sign in another way.",
    );
    expect(redirectErrorMessage("invalid_code", "GitHub")).toMatch(/^GitHub did not confirm the sign-in/);
    expect(redirectErrorMessage("invalid_code")).toMatch(/^The provider did not confirm/);
    expect(redirectErrorMessage("email_not_found", "Facebook", "facebook")).toContain(
      "with Facebook: it did not share an e-mail address",
    );
    expect(redirectErrorMessage("something_new")).toBe("Something went wrong. Please try again.");
  });

  it("gives each provider failure its own reason (issue 30)", () => {
    // X's app setting is the shop's, not the shopper's: the message never asks them to change it.
    const noAddressAtX = redirectErrorMessage("email_not_found", "X (Twitter)", "twitter") ?? "";
    expect(noAddressAtX).toContain("X did not give us an e-mail address");
    expect(noAddressAtX).toContain("confirm your address in X's settings");
    expect(noAddressAtX).not.toMatch(/allow X/);
    // GitHub listed an address but had not verified it: not "did not share".
    const unverified = redirectErrorMessage("email_not_verified", "GitHub", "github") ?? "";
    expect(unverified).toMatch(
      /^We could not sign you in with GitHub: your e-mail address there is not verified/,
    );
    expect(unverified).not.toMatch(/did not share/);
    expect(redirectErrorMessage("something_new")).toBe("Something went wrong. Please try again.");
    expect(redirectErrorMessage(null)).toBeNull();
  });

  it("never lets a message mention whether an address is registered", () => {
    for (const code of [
      "INVALID_EMAIL_OR_PASSWORD",
      "account_not_linked",
      "INVALID_TOKEN",
      "USER_NOT_FOUND",
    ]) {
      expect(authErrorMessage({ status: 400, code })).not.toMatch(
        /not registered|no account|not found|exists/i,
      );
      expect(redirectErrorMessage(code, "Facebook")).not.toMatch(
        /not registered|no account|not found|exists/i,
      );
    }
  });
});

describe("attemptAuth", () => {
  it("reads the retry time from the response of a limited call", async () => {
    const result = await attemptAuth(async ({ onError }) => {
      onError({ response: new Response(null, { status: 429, headers: { "X-Retry-After": "17" } }) });
      return { data: null, error: { status: 429, message: "Too many requests" } };
    });
    expect(result).toEqual({
      ok: false,
      code: undefined,
      message: "Too many attempts. Please wait 17 seconds and try again.",
    });
  });

  it("turns a failed request into the network message", async () => {
    const result = await attemptAuth(async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(result).toMatchObject({ ok: false, message: "Network error. Please try again." });
  });
});
