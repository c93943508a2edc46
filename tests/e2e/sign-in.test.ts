import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { signInContext, signUpViaHttp, TEST_PASSWORD } from "../accounts.ts";
import { type Shop, screenshot, VIEWPORTS } from "../fixtures.ts";
import { linkIn, readMails, waitForMail } from "../mail.ts";
import { startOidcServer } from "../oidc-server.ts";
import { contextOn, it, ownShopForFile, signedInOn } from "../shop-test.ts";
import { EVERY_VIEW, inEachView } from "../views.ts";

const CLIENT = { clientId: "shop-e2e", clientSecret: "shop-e2e-secret" };

let shop: Shop;
let oidc: Awaited<ReturnType<typeof startOidcServer>>;

// A shop of its own: Google sign-in goes to a local provider, and the owner is the one this file signs up.
beforeAll(async () => {
  oidc = await startOidcServer(CLIENT);
});
afterAll(() => oidc?.close());
ownShopForFile(
  (started) => {
    ({ shop } = started);
  },
  () => ({
    GOOGLE_CLIENT_ID: CLIENT.clientId,
    GOOGLE_CLIENT_SECRET: CLIENT.clientSecret,
    GOOGLE_ISSUER: oidc.issuer,
    ADMIN_EMAILS: "founder@example.in",
  }),
);

const mailCount = async () => (await readMails(shop.dataDir)).length;
const avatar = (page: Page) => page.getByRole("button", { name: /^Account menu for / });
const signedInAs = async (page: Page, email: string) => {
  await avatar(page).waitFor();
  expect(await avatar(page).getAttribute("aria-label")).toBe(`Account menu for ${email}`);
  expect(await avatar(page).textContent()).toBe(email.charAt(0));
};

describe("signing up and in with e-mail and password", () => {
  it("signs up, confirms from the e-mail, lands where it was going, signs out and back in", async ({
    browser,
  }) => {
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    const email = "asha@example.in";

    // A page that needs a session sends a signed-out visitor to sign in, and back afterwards.
    await page.goto("/settings");
    await page.waitForURL("**/login?redirectTo=%2Fsettings");
    await page.getByRole("link", { name: "Create an account" }).click();
    await page.waitForURL("**/signup?redirectTo=%2Fsettings");
    const before = await mailCount();
    await page.getByLabel("Name").fill("Asha Rao");
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    // The browser itself refuses a password under 8 characters before anything is sent.
    expect(
      await page.getByLabel("Password").evaluate((input: HTMLInputElement) => input.validity.tooShort),
    ).toBe(true);
    await page.getByLabel("Password").fill("turmeric-and-neem");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
    await screenshot(page, "sign-up-check-inbox");

    const mail = await waitForMail(shop.dataDir, {
      to: email,
      subject: /Confirm your e-mail/,
      after: before,
    });
    await page.goto(linkIn(mail, "/api/auth/verify-email"));
    await page.waitForURL("**/settings");
    // The link signs in on its way through: the shopper is told so (issue 30).
    await page.getByRole("status").getByText(`You're signed in as ${email}.`).waitFor();
    await signedInAs(page, email);

    await avatar(page).click();
    const menu = page.getByRole("menu", { name: "Account" });
    await menu.waitFor();
    expect(await menu.textContent()).toContain(email);
    expect(await menu.getByRole("menuitem").allTextContents()).toEqual([
      "My Orders",
      "My Questions",
      "Settings",
      "Logout",
    ]);
    await screenshot(page, "account-menu-open");
    await menu.getByRole("menuitem", { name: "Logout" }).click();
    await page.getByRole("link", { name: "Login" }).waitFor();

    await page.getByRole("link", { name: "Login" }).click();
    await page.getByRole("heading", { name: "Sign in", exact: true }).waitFor();
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").getByText("The e-mail or password is incorrect.").waitFor();
    await screenshot(page, "sign-in-wrong-password");
    await page.getByLabel("Password", { exact: true }).fill("turmeric-and-neem");
    await page.getByRole("button", { name: "Sign in" }).click();
    await signedInAs(page, email);
    await context.close();
  });

  it("takes the owner from her sign-up's confirmation link to the admin home, the shop's Login to it too", async ({
    browser,
  }) => {
    const context = await contextOn(browser, shop, { viewport: "phone" });
    const page = await context.newPage();
    const email = "founder@example.in";
    await page.goto("/signup");
    const before = await mailCount();
    await page.getByLabel("Name").fill("Lakshmi Menon");
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
    const mail = await waitForMail(shop.dataDir, {
      to: email,
      subject: /Confirm your e-mail/,
      after: before,
    });
    // Confirming proves the address ADMIN_EMAILS names: she is the owner, and she came to run the shop.
    await page.goto(linkIn(mail, "/api/auth/verify-email"));
    await page.waitForURL((url) => url.pathname === "/admin");
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    // Asked to go somewhere, she goes there, as anyone does.
    await page.goto("/login?redirectTo=%2Fcart");
    await page.waitForURL("**/cart");
    await context.close();
  });

  it("sends a signed-out visitor of My Orders and My Questions to sign in, and back afterwards", async ({
    browser,
  }) => {
    const account = await signUpViaHttp(shop.url, "returns@example.in");
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    for (const path of ["/orders", "/questions"]) {
      await page.goto(path);
      await page.waitForURL(`**/login?redirectTo=${encodeURIComponent(path)}`);
    }
    await page.getByLabel("E-mail", { exact: true }).fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL("**/questions");
    await signedInAs(page, account.email);
    await context.close();
  });

  it("works from the keyboard: the account menu opens, moves and closes with keys", async ({ browser }) => {
    const account = await signUpViaHttp(shop.url, "keys@example.in");
    const context = await signedInOn(browser, shop, account);
    const page = await context.newPage();
    await page.goto("/");
    await avatar(page).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menuitem", { name: "My Orders" }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("My Orders");
    await page.keyboard.press("ArrowDown");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("My Questions");
    await page.keyboard.press("End");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Logout");
    await page.keyboard.press("Escape");
    expect(await page.getByRole("menu").count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      "Account menu for keys@example.in",
    );
    await context.close();
  });
});

describe("a forgotten password", () => {
  it("is reset from the link in the e-mail, which then works only once", async ({ browser }) => {
    const account = await signUpViaHttp(shop.url, "bina@example.in");
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByRole("heading", { name: "Forgot your password?" }).waitFor();
    const before = await mailCount();
    await page.getByLabel("E-mail", { exact: true }).fill(account.email);
    await page.getByRole("button", { name: "Send me a link" }).click();
    await page.getByText(`If an account uses ${account.email}`).waitFor();

    const mail = await waitForMail(shop.dataDir, { to: account.email, subject: /Reset your/, after: before });
    const link = linkIn(mail, "/api/auth/reset-password/");
    await page.goto(link);
    await page.waitForURL("**/reset-password?token=*");
    await page.getByLabel("New password", { exact: true }).fill("sandalwood-and-rose");
    await page.getByLabel("New password again").fill("sandalwood-and-rose");
    await page.getByRole("button", { name: "Save new password" }).click();
    await page.getByRole("heading", { name: "Your password is changed" }).waitFor();

    await page.getByRole("link", { name: "Sign in", exact: true }).click();
    await page.getByRole("heading", { name: "Sign in", exact: true }).waitFor();
    await page.getByLabel("E-mail", { exact: true }).fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill("sandalwood-and-rose");
    await page.getByRole("button", { name: "Sign in" }).click();
    await signedInAs(page, account.email);

    await page.goto(link);
    await page.getByText("This link has expired or has already been used.").waitFor();
    await screenshot(page, "reset-link-used");
    await context.close();
  });
});

describe("signing in with an e-mail link", () => {
  it("mails a link whose landing page signs in with one click, once", async ({ browser }) => {
    const email = "chitra@example.in";
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await page.goto("/login?redirectTo=%2Fsettings");
    await page.getByRole("link", { name: "E-mail me a sign-in link" }).click();
    // Client-side navigation keeps the old page until the new one has loaded: wait for the new one.
    await page.getByRole("heading", { name: "Sign in with an e-mail link" }).waitFor();
    const before = await mailCount();
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByRole("button", { name: "E-mail me a link" }).click();
    await page.getByText(`We have sent a sign-in link to ${email}.`).waitFor();

    const mail = await waitForMail(shop.dataDir, { to: email, subject: /sign-in link/, after: before });
    const landing = linkIn(mail, "/login/email-link/verify");
    await page.goto(landing);
    await page.getByRole("heading", { name: "Finish signing in" }).waitFor();
    await screenshot(page, "email-link-landing");
    await page.getByRole("link", { name: "Sign me in" }).click();
    await page.waitForURL("**/settings");
    await signedInAs(page, email);

    const other = await contextOn(browser, shop);
    const second = await other.newPage();
    await second.goto(landing);
    await second.getByRole("link", { name: "Sign me in" }).click();
    await second.waitForURL("**/login/email-link?**error=INVALID_TOKEN");
    await second.getByText("This link has expired or has already been used.").waitFor();
    // The header asks who is signed in after the page shows; wait for its answer.
    await expect.poll(() => second.getByRole("link", { name: "Login" }).count()).toBe(1);
    await context.close();
    await other.close();
  });
});

describe("signing in with Google (a local OpenID Connect provider on 127.0.0.1)", () => {
  it("goes to the provider, comes back signed in, and links to the account with that address", async ({
    browser,
  }) => {
    const account = await signUpViaHttp(shop.url, "devi@example.in");
    oidc.signInAs({ email: account.email, name: "Devi" });
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await page.goto("/login?redirectTo=%2Fsettings");
    await screenshot(page, "sign-in-with-google-button");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await page.waitForURL(`${oidc.issuer}/authorize?**`);
    await page.getByRole("button", { name: `Continue as ${account.email}` }).click();
    await page.waitForURL("**/settings");
    await signedInAs(page, account.email);
    // The same account as the password sign-up: its sessions page lists both sign-ins' devices.
    const sessions = await page.evaluate(
      async () => (await (await fetch("/api/account/sessions")).json()).sessions,
    );
    expect(sessions.length).toBe(2);
    await context.close();
  });
});

describe("settings", () => {
  it("changes the name and password, signs out other sessions, keeps the theme, deletes the account", async ({
    browser,
  }) => {
    const account = await signUpViaHttp(shop.url, "esha@example.in");
    const elsewhere = await signedInOn(browser, shop, account);
    // A second session of the same account, through the form: the one "other sessions" leaves standing.
    const context = await contextOn(browser, shop);
    const page = await context.newPage();
    await page.goto("/login?redirectTo=%2Fsettings");
    await page.getByLabel("E-mail", { exact: true }).fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();

    const nameSection = page.getByRole("region", { name: "Your name" });
    await nameSection.getByLabel("Name").fill("Esha Menon");
    await nameSection.getByRole("button", { name: "Save name" }).click();
    await nameSection.getByText("Your name is saved.").waitFor();

    const sessions = page.getByRole("region", { name: "Where you're signed in" });
    expect(await sessions.getByRole("listitem").count()).toBe(2);
    await sessions.getByText("This device").waitFor();

    const passwordSection = page.getByRole("region", { name: "Password" });
    await passwordSection.getByLabel("Current password").fill(TEST_PASSWORD);
    await passwordSection.getByLabel("New password", { exact: true }).fill("jasmine-2026-tea");
    await passwordSection.getByLabel("New password again").fill("jasmine-2026-tea");
    await passwordSection.getByRole("button", { name: "Change password" }).click();
    await passwordSection
      .getByText("Your password is changed. Every other session has been signed out.")
      .waitFor();
    // The list reloads after the change: only this device is left.
    await sessions.getByRole("listitem").nth(1).waitFor({ state: "detached" });
    expect(await sessions.getByRole("listitem").count()).toBe(1);
    const other = await elsewhere.newPage();
    await other.goto("/settings");
    await other.waitForURL("**/login?redirectTo=%2Fsettings");

    const theme = page.getByRole("region", { name: "Theme" });
    await theme.getByLabel("Dark").check();
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await screenshot(page, "settings-dark-desktop");
    await page.getByRole("region", { name: "Theme" }).getByLabel("System").check();
    expect(await page.evaluate(() => localStorage.getItem("theme"))).toBeNull();
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(false);

    const danger = page.getByRole("region", { name: "Delete your account" });
    await danger.getByRole("button", { name: "Delete my account…" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    await dialog.waitFor();
    await screenshot(page, "settings-delete-dialog");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    await danger.getByRole("button", { name: "Delete my account…" }).click();
    await dialog.getByLabel("Your password, to confirm").fill("jasmine-2026-tea");
    await dialog.getByRole("button", { name: "Delete my account" }).click();
    await page.waitForURL("**/login?notice=account-deleted");
    await page.getByText("Your account has been deleted.").waitFor();
    await page.getByLabel("E-mail", { exact: true }).fill(account.email);
    await page.getByLabel("Password", { exact: true }).fill("jasmine-2026-tea");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText("The e-mail or password is incorrect.").waitFor();
    await context.close();
    await elsewhere.close();
  });
});

describe("the sign-in pages at 375 and 1280 px, light and dark", () => {
  // Thirty-six screenshots of nine page loads.
  it("renders each screen without horizontal scrolling", async ({ browser }) => {
    const account = await signUpViaHttp(shop.url, "looks@example.in");
    const screens = [
      ["login", "/login"],
      ["signup", "/signup"],
      ["forgot-password", "/forgot-password"],
      ["reset-password", "/reset-password?token=example"],
      ["email-link", "/login/email-link"],
      ["email-link-expired", "/login/email-link?error=INVALID_TOKEN"],
      ["email-link-landing", "/login/email-link/verify?token=example"],
      ["admin-login", "/admin/login"],
      ["settings", "/settings"],
    ] as const;
    // Each screen loaded once and shown at each width and in each theme (the window resized and the system
    // setting switched under it).
    const context = await contextOn(browser, shop, { viewport: "phone" });
    const page = await context.newPage();
    for (const [name, path] of screens) {
      if (name === "settings") await signInContext(context, shop.url, account);
      await page.goto(path);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await inEachView(page, EVERY_VIEW, async (viewport, colorScheme) => {
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} at ${VIEWPORTS[viewport].width} px, ${colorScheme}`).toBeLessThanOrEqual(0);
        await screenshot(page, `auth-${name}-${VIEWPORTS[viewport].width}-${colorScheme}`);
      });
    }
    await context.close();
  }, 120_000);
});
