import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { signInContext, signUpViaHttp } from "../accounts.ts";
import { type FakeProvider, type FakeProviderKind, startFakeProviders } from "../fake-social-providers.ts";
import { shoot, VIEWPORTS } from "../fixtures.ts";
import { addToCart } from "../forms.ts";
import { it, ownShopForFile } from "../shop-test.ts";
import { EVERY_VIEW, inEachView } from "../views.ts";

const CLIENTS = {
  facebook: { clientId: "4099887766554433", clientSecret: "fb-e2e-secret-0123456789abcdef" },
  github: { clientId: "Ov23liShopE2eClient", clientSecret: "gh-e2e-secret-0123456789abcdef" },
  twitter: { clientId: "X-shop-e2e-client", clientSecret: "x-e2e-secret-0123456789abcdef" },
} as const;
const NAMES = { facebook: "Facebook", github: "GitHub", twitter: "X (Twitter)" } as const;
/** Screenshots for people to look at (the brief asks for them outside the repository). */
const SHOTS = "/tmp/sign-in-providers";

let providers: Awaited<ReturnType<typeof startFakeProviders>>;
let fakes: Record<FakeProviderKind, FakeProvider>;

beforeAll(async () => {
  providers = await startFakeProviders(CLIENTS);
  fakes = providers.fakes;
  await mkdir(SHOTS, { recursive: true });
});
afterAll(() => providers?.close());
// The providers' fakes answer at addresses known once they run, so the shop's environment is read after them.
const own = ownShopForFile(undefined, () => providers.env);

/** The provider's account for an address, in the shape each provider gives it. */
function atProvider(kind: FakeProviderKind, email: string, name: string, id: string) {
  fakes[kind].signInAs({
    id,
    name,
    username: name.toLowerCase(),
    // Facebook's `email`, X's `confirmed_email`; GitHub's is private, on /user/emails only.
    email: kind === "github" ? undefined : email,
    emails: [{ email, primary: true, verified: true, visibility: "private" }],
  });
}

const badge = (page: Page, count: number) =>
  page.getByRole("link", { name: count === 1 ? "Cart, 1 item" : `Cart, ${count} items` });

/** The Login button: in the header from 640 px, in the menu sheet on a phone. */
async function clickLogin(page: Page, phone: boolean) {
  if (phone) {
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.getByRole("dialog").getByRole("link", { name: "Login" }).click();
  } else {
    await page.getByRole("banner").getByRole("link", { name: "Login" }).click();
  }
  await page.waitForURL("**/login**");
}

async function savedCart(page: Page) {
  return page.evaluate(async () => {
    const cart = await (await fetch("/api/cart")).json();
    return cart.lines.map((line: { id: string; quantity: number }) => [line.id, line.quantity]);
  });
}

describe("signing in with Facebook, GitHub and X: from the Login button to the avatar and a merged cart", () => {
  for (const kind of ["facebook", "github", "twitter"] as const) {
    it(`${NAMES[kind]} at 375 px (a new account) and at 1280 px (the same account, a second cart merged)`, async () => {
      const email = `${kind}.shopper@example.in`;
      atProvider(kind, email, "Pooja", `${kind === "github" ? "" : "1"}7${kind.length}1234`);
      for (const viewport of ["phone", "desktop"] as const) {
        const phone = viewport === "phone";
        const context = await own.openContext({ viewport });
        const page = await context.newPage();
        // A guest's cart: one product on the phone, another (and the first again) at the desk.
        await addToCart(page, "face-glow-oil", "Face Glow Oil");
        if (!phone) await addToCart(page, "badam-mix", "Badam Mix");
        await page.goto("/");
        await clickLogin(page, phone);
        await page.getByRole("button", { name: `Continue with ${NAMES[kind]}` }).click();
        await page.waitForURL(`${fakes[kind].base}/**`);
        await page.getByRole("button", { name: "Continue as Pooja" }).click();
        await page.waitForURL(`${own.shop.url}/`);

        await badge(page, phone ? 1 : 3).waitFor();
        if (phone) {
          // On a phone the avatar is in the menu sheet, under the account's address.
          await page.getByRole("button", { name: "Open menu" }).click();
          const account = page.getByRole("dialog").getByRole("navigation", { name: "Your account" });
          await account.getByText(email).waitFor();
          expect(await account.getByTestId("menu-avatar").textContent()).toBe(email.charAt(0));
        } else {
          const avatar = page.getByRole("button", { name: `Account menu for ${email}` });
          await avatar.waitFor();
          expect(await avatar.textContent()).toBe(email.charAt(0));
        }
        expect(await page.evaluate(() => localStorage.getItem("cart"))).toBeNull();
        expect(await savedCart(page)).toEqual(
          phone
            ? [["face-glow-oil", 1]]
            : [
                ["face-glow-oil", 2],
                ["badam-mix", 1],
              ],
        );
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await shoot(page, { path: `${SHOTS}/${kind}-signed-in-${VIEWPORTS[viewport].width}.png` });
        await context.close();
      }
      // The shop's own output carries no code, access token or client secret of the provider.
      for (const secret of [...fakes[kind].log.secrets, CLIENTS[kind].clientSecret]) {
        expect(own.shop.output()).not.toContain(secret);
      }
    });
  }
});

describe("when a provider gives no address, or cannot be trusted with one", () => {
  it("explains on /login and offers the e-mail link with one tap, its address field focused", async () => {
    fakes.twitter.app.emailPermission = false;
    atProvider("twitter", "no.address@example.in", "Ravi", "99001");
    const context = await own.openContext({ viewport: "phone" });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with X (Twitter)" }).click();
    await page.getByRole("button", { name: "Continue as Ravi" }).click();
    await page.waitForURL("**/login?**error=email_not_found**");
    const alert = page.getByRole("alert");
    // X's wording: what the shopper can do, never "allow X to share", which is the shop's app setting.
    await alert
      .getByText("We could not sign you in with X (Twitter): X did not give us an e-mail address")
      .waitFor();
    expect(await alert.textContent()).not.toContain("allow X");
    expect(await page.getByRole("button", { name: /^Account menu/ }).count()).toBe(0);
    await alert.getByRole("link", { name: "E-mail me a sign-in link" }).click();
    await page.waitForURL("**/login/email-link**");
    await page.getByRole("heading", { name: "Sign in with an e-mail link" }).waitFor();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe(
      "email",
    );
    fakes.twitter.restore();
    await context.close();
  });

  it("says a GitHub address that is there but unverified is unverified, not missing", async () => {
    fakes.github.signInAs({
      id: "77009",
      name: "Uma",
      username: "uma",
      email: undefined,
      emails: [{ email: "uma.code@example.in", primary: true, verified: false, visibility: "private" }],
    });
    const context = await own.openContext();
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page.getByRole("button", { name: "Continue as Uma" }).click();
    await page.waitForURL("**/login?**error=email_not_verified**");
    const alert = page.getByRole("alert");
    await alert
      .getByText("We could not sign you in with GitHub: your e-mail address there is not verified yet")
      .waitFor();
    expect(await alert.textContent()).not.toContain("did not share");
    await alert.getByRole("link", { name: "E-mail me a sign-in link" }).waitFor();
    expect(await page.getByRole("button", { name: /^Account menu/ }).count()).toBe(0);
    await context.close();
  });

  it("tells the owner of a password account to sign in first and connect Facebook in Settings", async () => {
    const account = await signUpViaHttp(own.shop.url, "sita@example.in");
    atProvider("facebook", account.email, "Sita", "88002");
    const context = await own.openContext();
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with Facebook" }).click();
    await page.getByRole("button", { name: "Continue as Sita" }).click();
    await page.waitForURL("**/login?**error=account_not_linked**");
    await page
      .getByRole("alert")
      .getByText("sign in with your password or an e-mail link first, then connect Facebook under Settings")
      .waitFor();
    expect(await page.getByRole("button", { name: /^Account menu/ }).count()).toBe(0);
    await context.close();
  });

  it("says the sign-in was cancelled when the shopper cancels at the provider", async () => {
    const context = await own.openContext();
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByRole("button", { name: "Continue with GitHub" }).click();
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL("**/login?**error=access_denied**");
    await page.getByRole("alert").getByText("You cancelled signing in with GitHub.").waitFor();
    await context.close();
  });
});

describe("the ways to sign in, in Settings", () => {
  it("lists them, connects GitHub, disconnects it, and keeps the last one", async () => {
    const account = await signUpViaHttp(own.shop.url, "anil@example.in");
    atProvider("github", "anil.code@example.in", "Anil", "77003");
    const context = await own.openContext();
    await signInContext(context, own.shop.url, account);
    const page = await context.newPage();
    await page.goto("/settings");
    const methods = page.getByRole("region", { name: "Ways to sign in" });
    await methods.getByRole("button", { name: "Connect GitHub" }).click();
    await page.getByRole("button", { name: "Continue as Anil" }).click();
    await page.waitForURL("**/settings?connected=github");
    await methods.getByText("GitHub is connected: you can sign in with it.").waitFor();
    await methods.getByRole("button", { name: "Disconnect GitHub" }).click();
    await methods.getByText("GitHub is disconnected.").waitFor();
    await methods.getByRole("button", { name: "Connect GitHub" }).waitFor();
    await context.close();

    // An account made by a GitHub sign-in has GitHub as its only way in: it cannot be disconnected.
    atProvider("github", "only.github@example.in", "Gita", "77004");
    const second = await own.openContext();
    const secondPage = await second.newPage();
    await secondPage.goto("/login?redirectTo=%2Fsettings");
    await secondPage.getByRole("button", { name: "Continue with GitHub" }).click();
    await secondPage.getByRole("button", { name: "Continue as Gita" }).click();
    await secondPage.waitForURL("**/settings");
    const only = secondPage.getByRole("region", { name: "Ways to sign in" });
    const disconnect = only.getByRole("button", { name: "Disconnect GitHub" });
    expect(await disconnect.getAttribute("aria-disabled")).toBe("true");
    await only.getByText("This is your only way to sign in, so it cannot be disconnected.").waitFor();
    expect(await only.getByText("Connected", { exact: true }).count()).toBe(1);
    await second.close();
  });
});

describe("the provider messages and the ways to sign in at 375 and 1280 px, light and dark", () => {
  it("fit the screen", async () => {
    const account = await signUpViaHttp(own.shop.url, "looks.providers@example.in");
    // GitHub connected, so Settings shows both states and a Disconnect button.
    atProvider("github", "looks.code@example.in", "Lata", "77005");
    const connecting = await own.openContext();
    await signInContext(connecting, own.shop.url, account);
    const connectPage = await connecting.newPage();
    await connectPage.goto("/settings");
    await connectPage.getByRole("button", { name: "Connect GitHub" }).click();
    await connectPage.getByRole("button", { name: "Continue as Lata" }).click();
    await connectPage.waitForURL("**/settings?connected=github");
    await connecting.close();
    const screens = [
      ["login-no-address", "/login?error=email_not_found&provider=twitter"],
      ["login-not-linked", "/login?error=account_not_linked&provider=facebook"],
      ["login-provider-down", "/login?error=unable_to_get_user_info&provider=github"],
      ["settings-ways-to-sign-in", "/settings"],
    ] as const;
    // Each screen loaded once and shown at each width and in each theme (the window resized and the system
    // setting switched under it).
    const context = await own.openContext({ viewport: "phone" });
    const page = await context.newPage();
    for (const [name, path] of screens) {
      if (name.startsWith("settings")) await signInContext(context, own.shop.url, account);
      await page.goto(path);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await inEachView(page, EVERY_VIEW, async (viewport, colorScheme) => {
        const shot = `${SHOTS}/${name}-${VIEWPORTS[viewport].width}-${colorScheme}.png`;
        if (name.startsWith("settings")) {
          const section = page.getByRole("region", { name: "Ways to sign in" });
          await section.scrollIntoViewIfNeeded();
          await shoot(section, { path: shot });
        } else {
          await page.getByRole("alert").waitFor();
          await shoot(page, { path: shot, fullPage: true });
        }
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${name} at ${VIEWPORTS[viewport].width} px, ${colorScheme}`).toBeLessThanOrEqual(0);
      });
    }
    await context.close();
  });
});
