import { describe, expect } from "vitest";
import { screenshot } from "../fixtures.ts";
import { addToCart } from "../forms.ts";
import { linkIn, waitForMail } from "../mail.ts";
import { it, uniqueEmail } from "../shop-test.ts";

// Issue 15: just after confirming a new account, /checkout said "Your cart is empty" while the header said
// "Cart, 1 item", because its loader asked for the saved cart before the guest cart had been merged into it.
describe("the guest cart survives signing up from checkout", () => {
  it.for(["phone", "desktop"] as const)("at %s size", async (viewport, { shop, openPage }) => {
    const page = await openPage({ viewport });
    const failures: string[] = [];
    page.on("pageerror", (error) => failures.push(error.message));
    const email = uniqueEmail(`confirm-${viewport}`);

    await addToCart(page, "face-glow-oil", "Face Glow Oil");
    await page.goto("/cart");
    await page.getByRole("link", { name: "Checkout" }).click();

    // The sign-in page says why it is there, and offers to go on without an account.
    await page.waitForURL("**/login?redirectTo=%2Fcheckout");
    await page.getByText("Sign in or check out as a guest").waitFor();
    await expect(page.getByRole("link", { name: "Check out as a guest" }).isVisible()).resolves.toBe(true);
    await screenshot(page, `login-from-checkout-${viewport}`);

    await page.getByRole("link", { name: "Create an account" }).click();
    await page.waitForURL("**/signup?redirectTo=%2Fcheckout");
    await page.getByLabel("Name").fill("Kavya Menon");
    await page.getByLabel("E-mail", { exact: true }).fill(email);
    await page.getByLabel("Password").fill("turmeric-and-honey-26");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();

    const mail = await waitForMail(shop.dataDir, { to: email, subject: /^Confirm your e-mail/ });
    await page.goto(linkIn(mail, "/api/auth/verify-email"));
    await page.waitForURL("**/checkout");
    await page.getByRole("heading", { name: "Checkout" }).waitFor();
    const summary = page.getByRole("complementary", { name: "Order summary" });
    await expect(summary.getByText("Face Glow Oil").isVisible()).resolves.toBe(true);
    await expect(page.getByText("Your cart is empty").count()).resolves.toBe(0);
    await screenshot(page, `checkout-after-confirmation-${viewport}`);
    expect(failures).toEqual([]);
  });
});
