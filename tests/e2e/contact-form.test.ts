import type { Page, Route } from "playwright-core";
import { describe, expect } from "vitest";
import { shoot } from "../fixtures.ts";
import { it } from "../shop-test.ts";

async function fillForm(page: Page, email = "asha@example.in") {
  const form = page.getByRole("form", { name: "Contact us" });
  await form.getByRole("textbox", { name: "Name" }).fill("Asha Menon");
  await form.getByRole("textbox", { name: "E-mail" }).fill(email);
  await form
    .getByRole("textbox", { name: "Message" })
    .fill("Is the Kids Bath Powder safe for a 7 month old?");
  return form;
}

describe("the contact form on the home page", () => {
  it("sends the message, disabling the fields meanwhile, then thanks the visitor", async ({ page }) => {
    await page.goto("/#contact");
    const form = await fillForm(page);

    // Hold the request so the in-between state can be seen.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sent: { body: unknown; headers: Record<string, string> } | undefined;
    await page.route("**/api/contact", async (route: Route) => {
      sent = { body: route.request().postDataJSON(), headers: route.request().headers() };
      await held;
      await route.continue();
    });
    await form.getByRole("button", { name: "Send message" }).click();
    await form.getByRole("button", { name: "Sending…" }).waitFor();
    expect(await form.getByRole("textbox", { name: "Name" }).isDisabled()).toBe(true);
    expect(await form.getByRole("textbox", { name: "Message" }).isDisabled()).toBe(true);
    release();

    await page.getByText("Thank you for reaching out! Your message has been sent successfully.").waitFor();
    expect(sent?.body).toEqual({
      name: "Asha Menon",
      email: "asha@example.in",
      message: "Is the Kids Bath Powder safe for a 7 month old?",
    });
    expect(sent?.headers.accept).toContain("application/json");
    expect(sent?.headers["content-type"]).toContain("application/json");
    expect(await form.getByRole("textbox", { name: "Name" }).inputValue()).toBe("");
    expect(await form.getByRole("textbox", { name: "Name" }).isDisabled()).toBe(false);
    await shoot(page.locator("#contact"), { path: "test-results/screenshots/home-contact-sent-desktop.png" });
  });

  it("requires every field and a real e-mail address before sending", async ({ openPage }) => {
    const page = await openPage({ viewport: "phone" });
    let requests = 0;
    page.on("request", (request) => {
      if (request.url().endsWith("/api/contact")) requests++;
    });
    await page.goto("/#contact");
    const form = page.getByRole("form", { name: "Contact us" });
    await form.getByRole("button", { name: "Send message" }).click();
    expect(
      await form
        .getByRole("textbox", { name: "Name" })
        .evaluate((input: HTMLInputElement) => input.validity.valueMissing),
    ).toBe(true);
    await fillForm(page, "not-an-address");
    await form.getByRole("button", { name: "Send message" }).click();
    expect(
      await form
        .getByRole("textbox", { name: "E-mail" })
        .evaluate((input: HTMLInputElement) => input.validity.typeMismatch),
    ).toBe(true);
    expect(requests).toBe(0);
  });

  it("shows the server's first error, the general failure, or the network error", async ({ openPage }) => {
    const page = await openPage({ colorScheme: "dark" });
    await page.goto("/#contact");
    const form = await fillForm(page);
    const send = () => form.getByRole("button", { name: "Send message" }).click();
    const alert = form.getByRole("alert");

    // The real server refusing: a message over the limit the browser does not enforce when pasted by a script.
    await form.getByRole("textbox", { name: "Message" }).evaluate((textarea: HTMLTextAreaElement) => {
      textarea.removeAttribute("maxlength");
    });
    await form.getByRole("textbox", { name: "Message" }).fill("a".repeat(5001));
    await send();
    await expect
      .poll(() => alert.textContent())
      .toBe("Your message must be at most 5000 characters long (it has 5001).");
    await shoot(page.locator("#contact"), {
      path: "test-results/screenshots/home-contact-error-desktop-dark.png",
    });

    await page.route("**/api/contact", (route) => route.fulfill({ status: 500, json: { ok: false } }));
    await send();
    await expect.poll(() => alert.textContent()).toBe("Something went wrong. Please try again.");

    await page.unroute("**/api/contact");
    await page.route("**/api/contact", (route) => route.abort("internetdisconnected"));
    await send();
    await expect.poll(() => alert.textContent()).toBe("Network error. Please try again.");
  });
});
