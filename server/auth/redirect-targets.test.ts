import { beforeAll, describe, expect, it } from "vitest";
import { signUpThroughApp } from "../../tests/accounts.ts";
import { jsonRequest, setUpTestApp } from "../../tests/database.ts";
import { readMails, waitForMail } from "../../tests/mail.ts";

const shop = setUpTestApp();
beforeAll(async () => {
  // A real account, so a link or reset that got through would be mailed.
  await signUpThroughApp(shop.app, "gita@example.in");
  // Its confirmation mail goes out after the answer: counted from here on, it would look like a mail let through.
  await waitForMail(shop.dataDir, { to: "gita@example.in", subject: /Confirm your e-mail/ });
});

const ORIGIN = "http://localhost:3000";

const post = async (path: string, body: Record<string, unknown>) =>
  shop.app.request(path, jsonRequest({ method: "POST", body, headers: { Origin: ORIGIN } }));

/** Every auth request that names where the shopper goes next, with that place as `target`. */
const requests: [string, (target: string) => Promise<Response>][] = [
  [
    "an e-mail link's callbackURL",
    (target) => post("/api/auth/sign-in/magic-link", { email: "gita@example.in", callbackURL: target }),
  ],
  [
    "an e-mail link's errorCallbackURL",
    (target) =>
      post("/api/auth/sign-in/magic-link", {
        email: "gita@example.in",
        callbackURL: "/login",
        errorCallbackURL: target,
      }),
  ],
  [
    "a confirmation e-mail's callbackURL",
    (target) => post("/api/auth/send-verification-email", { email: "gita@example.in", callbackURL: target }),
  ],
  [
    "a reset e-mail's redirectTo",
    (target) => post("/api/auth/request-password-reset", { email: "gita@example.in", redirectTo: target }),
  ],
];

// Each passes Better Auth's own check (a path on this site) but carries, or is, a way off the shop.
const hostile = [
  "/login?redirectTo=%2F%09%2Fevil.example",
  "/login?redirectTo=%2F%2Fevil.example",
  "/login?redirectTo=%2F%5Cevil.example",
  "/login?redirectTo=javascript%3Aalert(1)",
  "/login?redirectTo=https%3A%2F%2Fevil.example",
  "/login?mode=admin&redirectTo=%2F%0A%2Fevil.example",
  `${ORIGIN}/login?redirectTo=%2F%09%2Fevil.example`,
  "/\t/evil.example",
  "/%09/evil.example",
];

describe("where the auth server may send a shopper afterwards", () => {
  it.each(requests)(
    "%s: refuses a target that leads off the shop, and sends nothing",
    async (_name, send) => {
      const mailsBefore = (await readMails(shop.dataDir)).length;
      for (const target of hostile) {
        const response = await send(target);
        expect(response.status, target).toBe(403);
      }
      expect((await readMails(shop.dataDir)).length).toBe(mailsBefore);
    },
  );

  it.each(requests)("%s: takes a path on the shop", async (_name, send) => {
    for (const target of ["/login?redirectTo=%2Fsettings", "/reset-password", `${ORIGIN}/login`]) {
      expect((await send(target)).status, target).toBe(200);
    }
  });
});
