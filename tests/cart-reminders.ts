import type { Hono } from "hono";
import { signUpViaApp, signUpWithRole, type TestAccount } from "./accounts.ts";
import { createTestApp } from "./database.ts";
import { asUser, setStock } from "./orders.ts";

/** `hours` from now: the clock a sweep of carts left behind is asked to see. */
export const hoursFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000);

/**
 * A test file's own shop (with `env`) for carts left behind: its owner, signed up as `ownerEmail`, and 100
 * each of coconut oil and bath powder to leave in carts.
 */
export async function startReminderShop(ownerEmail: string, env: Record<string, string> = {}) {
  const shop = await createTestApp(env);
  const owner = await signUpWithRole(shop, ownerEmail, "owner");
  await setStock(shop.db, "coconut-oil", 100);
  await setStock(shop.db, "bath-powder", 100);
  return { shop, owner };
}

/** A new account that said yes to cart reminders by e-mail, with the tick at checkout (unless `consent` is false). */
export async function signUpForReminders(app: Hono, email: string, consent = true): Promise<TestAccount> {
  const account = await signUpViaApp(app, email);
  if (consent) {
    const answer = await app.request(
      "/api/marketing-consent",
      asUser(account.cookie, { method: "PUT", body: { consented: true, where: "checkout" } }),
    );
    if (answer.status !== 200) throw new Error(`consent: ${answer.status} ${await answer.text()}`);
  }
  return account;
}

/** The owner saves the cart reminders on: one an hour after a cart is left, no code, unless `settings` says otherwise. */
export async function saveReminderSettings(
  app: Hono,
  owner: TestAccount,
  settings: Record<string, unknown> = {},
) {
  const answer = await app.request(
    "/api/admin/cart-reminders/settings",
    asUser(owner.cookie, {
      method: "PUT",
      body: {
        enabled: true,
        delayMinutes: 60,
        secondReminder: false,
        codePercent: 0,
        codeDays: 3,
        ...settings,
      },
    }),
  );
  if (answer.status !== 200) throw new Error(`settings: ${answer.status} ${await answer.text()}`);
}
