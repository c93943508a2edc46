import { Hono } from "hono";
import { signUpViaApp, type TestAccount } from "./accounts.ts";

/**
 * Signs up several accounts through the real auth API. Better Auth allows 3 sign-ups per address in
 * 10 seconds, so each comes from its own (forwarded) client address, as distinct shoppers would.
 */
let addressesUsed = 0;

export async function signUpMany(app: Hono, emails: string[]): Promise<TestAccount[]> {
  return Promise.all(
    emails.map((email) => {
      addressesUsed += 1;
      const address = `198.51.${Math.floor(addressesUsed / 250) + 100}.${(addressesUsed % 250) + 1}`;
      const fromOwnAddress = new Hono().all("*", (c) => {
        const request = new Request(c.req.raw);
        request.headers.set("x-forwarded-for", address);
        return app.fetch(request);
      });
      return signUpViaApp(fromOwnAddress, email);
    }),
  );
}
