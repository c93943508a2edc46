import { describe, expect, it } from "vitest";
import { signUpViaApp } from "../../tests/accounts.ts";
import { jsonRequest, setUpTestApp } from "../../tests/database.ts";
import { readMails } from "../../tests/mail.ts";
import { verifications } from "../db/schema.ts";

const shop = setUpTestApp();

const ORIGIN = "http://localhost:3000";
const post = (path: string, body: unknown) =>
  shop.app.request(path, jsonRequest({ method: "POST", body, headers: { Origin: ORIGIN } }));

/** The answer as a client can compare it: status, body bytes and headers (cookies, the date and the request's id aside). */
async function answer(response: Response) {
  const headers = [...response.headers.entries()].filter(
    ([name]) => !["set-cookie", "date", "x-request-id"].includes(name),
  );
  return { status: response.status, body: await response.text(), headers };
}

describe("answers that could tell whether an address has an account", () => {
  it("sign-up answers the same bytes for a new and for a registered address", async () => {
    const body = { name: "Meera", email: "meera@example.in", password: "a-long-enough-password" };
    const first = await answer(await post("/api/auth/sign-up/email", body));
    const again = await answer(await post("/api/auth/sign-up/email", body));
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    // Nothing in it names an account: no id, no role, no time of creation.
    expect(first.body).not.toMatch(/"id"|"role"|createdAt/);
    // The owner still hears of both attempts: a confirmation link, then "you already have an account".
    await expect
      .poll(async () => (await readMails(shop.dataDir)).map((mail) => mail.subject))
      .toEqual([expect.stringMatching(/Confirm your e-mail/), expect.stringMatching(/already have/)]);
  });

  it("a reset request and an e-mail link request answer the same bytes either way", async () => {
    await signUpViaApp(shop.app, "known@example.in");
    for (const [path, extra] of [
      ["/api/auth/request-password-reset", { redirectTo: "/reset-password" }],
      ["/api/auth/sign-in/magic-link", { callbackURL: "/" }],
    ] as const) {
      const known = await answer(await post(path, { email: "known@example.in", ...extra }));
      const unknown = await answer(await post(path, { email: "nobody@example.in", ...extra }));
      expect(known.status).toBe(200);
      expect(unknown).toEqual(known);
    }
    // The unknown address's reset wrote a token row too (for the time it takes), gone after the answer; what
    // stays is the known address's reset token and the two e-mail link tokens (any address can ask for one).
    await expect.poll(async () => (await shop.db.select().from(verifications)).length).toBe(3);
    const rows = await shop.db.select().from(verifications);
    expect(rows.every((row) => row.value !== "")).toBe(true);
  });
});
