import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, users } from "../../server/db/schema.ts";
import { signInContext, signUpViaHttp } from "../accounts.ts";
import { type FakeSmsProvider, fakeTwilioEnv, startFakeSmsProvider } from "../fake-sms-provider.ts";
import { newContext, type Shop, type ShopDatabase, shoot, VIEWPORTS } from "../fixtures.ts";
import { typeAddress } from "../forms.ts";
import { ownShopForFile } from "../shop-test.ts";
import { inEachView, viewsAt } from "../views.ts";

let sms: FakeSmsProvider;
let shop: Shop;
let browser: Browser;
let database: ShopDatabase;

beforeAll(async () => {
  sms = await startFakeSmsProvider();
});
afterAll(() => sms?.close());
// The fake answers at an address known once it runs, so the shop's environment is read after it.
ownShopForFile(
  (started) => {
    ({ shop, browser, database } = started);
  },
  () => fakeTwilioEnv(sms.base),
);

/** Screenshots of this journey go to /tmp, for a person to look at. */
const shot = (page: Page, name: string) =>
  shoot(page, { path: `/tmp/mobile-sign-in-${name}.png`, fullPage: true });

/**
 * Signs in with `mobile` from the sign-in page; each step is pictured as `name`-step, or, given `looks`, in each
 * of them as `name`-scheme-step (the theme switched under the page).
 */
async function signInWithMobile(
  page: Page,
  mobile: string,
  name: string,
  looks?: ReturnType<typeof viewsAt>,
) {
  const look = async (step: string) => {
    if (!looks) return shot(page, `${name}-${step}`);
    await inEachView(page, looks, (_, scheme) => shot(page, `${name}-${scheme}-${step}`));
  };
  await page.getByRole("link", { name: "Sign in with mobile" }).click();
  await page.getByRole("heading", { name: "Sign in with your mobile" }).waitFor();
  await page.getByLabel("Mobile number").fill(mobile);
  await look("number");
  const before = sms.messages.length;
  await page.getByRole("button", { name: "Send code" }).click();
  await page.getByRole("heading", { name: "Enter the code" }).waitFor();
  const code = await sms.codeFor(`+91${mobile.replace(/\D/g, "").slice(-10)}`, { after: before });
  await look("code");
  await page.getByLabel("Code from the SMS").fill(code);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

describe("signing in with a mobile number", () => {
  it("signs a new shopper in with a code read from the SMS, and they check out with cash on delivery", async () => {
    const context = await newContext(browser, shop, { viewport: "phone" });
    const page = await context.newPage();
    const failures: string[] = [];
    page.on("pageerror", (error) => failures.push(error.message));

    await page.goto("/login");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();

    // A wrong code first: the page says so and keeps the shopper on the code step.
    await page.getByRole("link", { name: "Sign in with mobile" }).click();
    await page.getByLabel("Mobile number").fill("98450 12345");
    const before = sms.messages.length;
    await page.getByRole("button", { name: "Send code" }).click();
    await page.getByRole("heading", { name: "Enter the code" }).waitFor();
    const code = await sms.codeFor("+919845012345", { after: before });
    await page.getByLabel("Code from the SMS").fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page
      .getByText("That code is not right or no longer works. Check the SMS, or ask for a new code.")
      .waitFor();
    await shot(page, "phone-wrong-code");
    await page.getByLabel("Code from the SMS").fill(code);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/");
    // The code signs in and the page changes: the shopper is told so, and the header shows the avatar even
    // at 375 px (issue 30).
    await page.getByRole("status").getByText("You're signed in as +91 98450 12345.").waitFor();
    await page
      .getByRole("banner")
      .getByRole("button", { name: "Account menu for +91 98450 12345" })
      .waitFor();
    await shot(page, "phone-signed-in-toast");
    const session = (await (await page.request.get("/api/auth/get-session")).json()) as {
      user: { phoneNumber: string; email: string };
    };
    expect(session.user).toMatchObject({
      phoneNumber: "+919845012345",
      email: "919845012345@mobile.invalid",
    });
    expect(sms.messages.at(-1)?.body).toMatch(/is your .+ sign-in code\. It works for 5 minutes\./);

    await page.goto("/product/face-glow-oil");
    await page.getByRole("heading", { level: 1, name: "Face Glow Oil" }).waitFor();
    await page.getByRole("button", { name: "Add to cart" }).click();
    await page.getByText("Face Glow Oil was added to cart!").waitFor();
    await page.goto("/checkout");
    await page.getByRole("heading", { name: "Checkout" }).waitFor();
    const form = page.getByRole("form", { name: "New delivery address" });
    await typeAddress(form, {
      name: "Ravi Kumar",
      phone: "98450 12345",
      line1: "4, Temple Street",
      city: "Bengaluru",
      pin: "560004",
    });
    await form.getByLabel("State or union territory").selectOption("Karnataka");
    await form.getByRole("button", { name: "Save address" }).click();
    await page.getByRole("radio", { name: /Ravi Kumar/ }).waitFor();
    await page.getByRole("radio", { name: /Cash on delivery/ }).check();
    await page.getByRole("button", { name: /^Place order/ }).click();
    await page.waitForURL(/\/orders\/PN-\d{4}-\d{6}\?placed=1$/);
    await page.getByText("Thank you! Your order is placed.").waitFor();
    await shot(page, "phone-order-placed");

    // Settings for an account made with a mobile number: no e-mail links, no password to reset with an
    // address it does not have, no "Not set" then "only way" contradiction, and no number for a name.
    await page.goto("/settings");
    await page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
    await expect(page.getByRole("textbox", { name: "Name" }).inputValue()).resolves.toBe("");
    const password = page.getByRole("region", { name: "Password" });
    await password
      .getByText(
        "You sign in with a code we send by SMS to +91 98450 12345. An account made with a mobile number has no password.",
      )
      .waitFor();
    const ways = page.getByRole("region", { name: "Ways to sign in" });
    await ways.getByText("+91 98450 12345: a code by SMS each time").waitFor();
    const settingsText = (await page.getByRole("main").textContent()) ?? "";
    for (const wrong of [
      "e-mail link",
      "Forgot your password",
      "Not set",
      "only way to sign in",
      "e-mail address",
    ])
      expect(settingsText, wrong).not.toContain(wrong);
    await shot(page, "phone-settings-mobile-account");

    const [user] = await database.db.select().from(users).where(eq(users.phoneNumber, "+919845012345"));
    expect(user?.phoneNumberVerified).toBe(true);
    expect(
      await database.db
        .select()
        .from(orders)
        .where(eq(orders.userId, user?.id ?? "")),
    ).toHaveLength(1);
    expect(failures).toEqual([]);
    await context.close();
  });

  it("adds a mobile to an e-mail account in Settings, then signs in to that account with it", async () => {
    const account = await signUpViaHttp(shop.url, "asha@example.in");
    const settings = await newContext(browser, shop, { viewport: "desktop" });
    await signInContext(settings, shop.url, account);
    const page = await settings.newPage();
    await page.goto("/settings");
    const section = page.getByRole("region", { name: "Mobile number" });
    await section.getByLabel("Mobile number").fill("81234 56789");
    const before = sms.messages.length;
    await section.getByRole("button", { name: "Send code" }).click();
    const code = await sms.codeFor("+918123456789", { after: before });
    await section.getByLabel(/Code sent by SMS to/).fill(code);
    await section.getByRole("button", { name: "Save mobile number" }).click();
    await section.getByText("is saved: you can sign in with it.").waitFor();
    await shot(page, "settings-mobile-saved");
    await settings.close();

    const fresh = await newContext(browser, shop, { viewport: "phone" });
    const phone = await fresh.newPage();
    await phone.goto("/login");
    await signInWithMobile(phone, "8123456789", "existing-account");
    await phone.waitForURL((url) => url.pathname === "/");
    const session = (await (await phone.request.get("/api/auth/get-session")).json()) as {
      user: { id: string; email: string };
    };
    expect(session.user).toMatchObject({ id: account.userId, email: "asha@example.in" });
    await fresh.close();
  });

  // The sign-in once per width; each of its screens is looked at in both themes, switched under the loaded page
  // (the theme changes how they look, not what signing in does).
  it("shows the sign-in page with the mobile button at 375 and 1280 px, light and dark", async () => {
    for (const viewport of ["phone", "desktop"] as const) {
      const looks = viewsAt([viewport]);
      const context = await newContext(browser, shop, { viewport, colorScheme: "light" });
      const page = await context.newPage();
      await page.goto("/login");
      const button = page.getByRole("link", { name: "Sign in with mobile" });
      await button.waitFor();
      const width = VIEWPORTS[viewport].width;
      await inEachView(page, looks, async (_, colorScheme) => {
        const box = await button.boundingBox();
        expect(box?.width, colorScheme).toBeLessThanOrEqual(VIEWPORTS[viewport].width);
        expect(box?.height, colorScheme).toBeGreaterThanOrEqual(44);
        await shot(page, `login-${width}-${colorScheme}`);
      });
      await signInWithMobile(page, "+91 70000 12345", `${width}`, looks);
      await page.waitForURL((url) => url.pathname === "/");
      if (viewport === "desktop") {
        // The header names a mobile account by its number, not by the stand-in address it has.
        await page.getByRole("button", { name: "Account menu for +91 70000 12345" }).waitFor();
      }
      await context.close();
    }
  });
});
