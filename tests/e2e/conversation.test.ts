import type { Browser, BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect } from "vitest";
import { CONTACT_TEXTS } from "../../common/contact.ts";
import { makeAdmin, signUpViaHttp, type TestAccount } from "../accounts.ts";
import { showColorScheme } from "../color-scheme.ts";
import { type Shop, type ShopDatabase, screenshot, VIEWPORTS } from "../fixtures.ts";
import { readMails } from "../mail.ts";
import { contextOn, it, ownShopForFile, signedInOn } from "../shop-test.ts";

let shop: Shop;
let database: ShopDatabase;
let customer: TestAccount;
let admin: TestAccount;

// A shop of its own: one test counts on the contact form's limit per hour, and questions and reviews show
// to every visitor of the product page.
ownShopForFile((started) => {
  ({ shop, database } = started);
});
beforeAll(async () => {
  customer = await signUpViaHttp(shop.url, "priya.sharma@example.in");
  admin = await signUpViaHttp(shop.url, "staff@example.in");
  await makeAdmin({ db: database.db, url: shop.url }, admin);
});

function open(browser: Browser, account: TestAccount | null, options: Parameters<typeof contextOn>[2] = {}) {
  return account ? signedInOn(browser, shop, account, options) : contextOn(browser, shop, options);
}

/** Collects responses the page got with a server error, which no journey here should cause. */
function watchServerErrors(page: Page) {
  const failed: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 500) failed.push(`${response.status()} ${response.url()}`);
  });
  return failed;
}

describe("a question, from asking to the answer on the product page", () => {
  const question = "Can I use it on <b>coloured</b> hair?\nI dye it every month.";
  const answer = "Yes. It has no ammonia or peroxide, so colour is safe.";

  it("is asked on the product page, answered in /admin/questions, then seen on /questions and by everyone", async ({
    browser,
  }) => {
    const contexts: BrowserContext[] = [];
    try {
      const asker = await open(browser, customer);
      contexts.push(asker);
      const page = await asker.newPage();
      const failed = watchServerErrors(page);
      await page.goto("/product/hair-growth-oil");
      await page.getByRole("heading", { name: "Questions and answers" }).waitFor();
      await page.getByLabel("Ask a question about this product").fill("Too short");
      await page.getByRole("button", { name: "Ask question" }).click();
      await page.getByText("Your question must be at least 10 characters long (it has 9).").waitFor();
      await page.getByLabel("Ask a question about this product").fill(question);
      await page.getByRole("button", { name: "Ask question" }).click();
      await page.getByText("Thank you! We will e-mail you when your question is answered.").waitFor();

      await page.goto("/questions");
      await page.getByRole("heading", { name: "My questions" }).waitFor();
      const mine = page.getByRole("article").filter({ hasText: "coloured" });
      await mine.getByText("Awaiting answer").waitFor();
      expect(await mine.getByText(/Can I use it on <b>coloured<\/b> hair\?/).isVisible()).toBe(true);

      const staff = await open(browser, admin);
      contexts.push(staff);
      const adminPage = await staff.newPage();
      await adminPage.goto("/admin/questions");
      const card = adminPage.getByRole("article").filter({ hasText: "coloured" });
      await card.getByText("Awaiting answer").waitFor();
      await card.getByLabel("Answer").fill(answer);
      await card.getByRole("button", { name: "Publish answer" }).click();
      await adminPage.getByText("Answer published. The customer has been e-mailed.").waitFor();
      await card.getByText("Answered", { exact: true }).waitFor();

      const mail = (await readMails(shop.dataDir)).find(
        (m) => m.to === customer.email && m.subject.includes("question"),
      );
      expect(mail?.subject).toBe("Your question about Hair Growth Oil has been answered");
      expect(mail?.text).toContain(answer);

      await page.reload();
      await mine.getByText("Answered", { exact: true }).waitFor();
      expect(await mine.getByText(answer).isVisible()).toBe(true);

      const visitor = await open(browser, null);
      contexts.push(visitor);
      const anyone = await visitor.newPage();
      await anyone.goto("/product/hair-growth-oil");
      const qa = anyone.getByRole("region", { name: "Questions and answers" });
      await qa.getByText(answer).waitFor();
      // Shown as the customer wrote it: the tags are text, not markup.
      expect(await qa.getByText(/<b>coloured<\/b>/).isVisible()).toBe(true);
      expect(await qa.locator("b").count()).toBe(0);
      expect(await qa.getByRole("link", { name: "Sign in to ask a question" }).isVisible()).toBe(true);
      expect(failed).toEqual([]);
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  });

  it("sends a signed-out visitor from /questions to sign in, and back", async ({ browser }) => {
    const context = await open(browser, null);
    const page = await context.newPage();
    await page.goto("/questions");
    await page.waitForURL("**/login?redirectTo=%2Fquestions");
    await context.close();
  });
});

describe("a review, from writing to the product page", () => {
  it("is written, waits for approval, is approved in /admin/reviews, then shows with the rating breakdown", async ({
    browser,
  }) => {
    const contexts: BrowserContext[] = [];
    try {
      const author = await open(browser, customer);
      contexts.push(author);
      const page = await author.newPage();
      const failed = watchServerErrors(page);
      await page.goto("/product/face-glow-oil");
      await page.getByRole("button", { name: "Write a review" }).click();
      await page.getByRole("button", { name: "Submit review" }).click();
      await page.getByText("Please choose a rating from 1 to 5 stars.").waitFor();
      await page.locator("label", { has: page.getByText("4 stars", { exact: true }) }).click();
      await page.getByLabel("Title").fill("A little goes a long way");
      await page
        .getByLabel("Your review")
        .fill("Two drops at night and my skin is soft by morning.\nNo greasy feel.");
      await page.getByRole("button", { name: "Submit review" }).click();
      await page.getByText("Thank you! Your review will appear once the shop has approved it.").waitFor();
      const own = page.getByRole("region", { name: "Your review" });
      await own.getByText("Awaiting approval").waitFor();

      const visitor = await open(browser, null);
      contexts.push(visitor);
      const anyone = await visitor.newPage();
      await anyone.goto("/product/face-glow-oil");
      await anyone.getByText("No reviews have been written on our shop yet.").waitFor();
      expect(await anyone.getByText("A little goes a long way").count()).toBe(0);

      const staff = await open(browser, admin);
      contexts.push(staff);
      const adminPage = await staff.newPage();
      await adminPage.goto("/admin/reviews");
      const card = adminPage.getByRole("article").filter({ hasText: "A little goes a long way" });
      await card.getByText("Awaiting approval").waitFor();
      await card.getByRole("button", { name: "Approve" }).click();
      await adminPage.getByText("Approved: the review is on the product page.").waitFor();
      await adminPage.getByText("No reviews are waiting for approval.").waitFor();

      await anyone.reload();
      const reviews = anyone.getByRole("list", { name: "Reviews" });
      const shown = reviews.getByRole("listitem").filter({ hasText: "A little goes a long way" });
      await shown.waitFor();
      expect(await shown.getByText("Priya", { exact: true }).isVisible()).toBe(true);
      expect(await shown.getByRole("img", { name: "4 out of 5 stars" }).isVisible()).toBe(true);
      // Orders are not on this branch: nobody is a verified buyer yet (the badge logic is unit-tested).
      expect(await shown.getByText("Verified purchase").count()).toBe(0);
      expect(await anyone.getByText("1 review written on our shop").isVisible()).toBe(true);
      const fourStars = anyone.getByRole("listitem").filter({ hasText: /^4 stars/ });
      expect((await fourStars.textContent())?.replace(/\s+/g, " ")).toBe("4 stars1 review");

      await page.reload();
      await own.getByText("Published").waitFor();
      expect(failed).toEqual([]);
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  });
});

describe("the contact form's three outcomes", () => {
  // The form on /contact is the home page's, under the contact text; both post to POST /api/contact.
  async function fillForm(page: Page, email: string) {
    await page.getByLabel("Name").fill("Anita");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Message").fill("Do you deliver to Pune?");
  }

  it("says thank you when the message is stored, and keeps the fields disabled while sending", async ({
    browser,
  }) => {
    const context = await open(browser, null);
    const page = await context.newPage();
    await page.goto("/contact");
    await fillForm(page, "anita@example.in");
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/contact", async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Send message" }).click();
    await page.getByRole("button", { name: "Sending…" }).waitFor();
    expect(await page.getByLabel("Message").isDisabled()).toBe(true);
    expect(await page.getByLabel("E-mail").isDisabled()).toBe(true);
    release();
    await page.getByText(CONTACT_TEXTS.success).waitFor();
    expect(await page.getByLabel("Message").inputValue()).toBe("");
    await context.close();
  });

  it("shows the server's own message when it refuses one (the sixth message in an hour)", async ({
    browser,
  }) => {
    // Four more from this client address; the browser's message is then the sixth within the hour.
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${shop.url}/api/contact`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: shop.url },
        body: JSON.stringify({ name: "Anita", email: `anita${i}@example.in`, message: "Hello" }),
      });
      expect(response.status).toBe(200);
    }
    const context = await open(browser, null);
    const page = await context.newPage();
    await page.goto("/contact");
    await fillForm(page, "anita.again@example.in");
    await page.getByRole("button", { name: "Send message" }).click();
    await page
      .getByRole("alert")
      .getByText(/^You have sent 5 messages in the last hour\. Please wait a while before sending another/)
      .waitFor();
    await context.close();
  });

  it("says so when the network fails (the request is cut off with page.route)", async ({ browser }) => {
    const context = await open(browser, null);
    const page = await context.newPage();
    await page.goto("/contact");
    await page.route("**/api/contact", (route) => route.abort("internetdisconnected"));
    await fillForm(page, "offline@example.in");
    await page.getByRole("button", { name: "Send message" }).click();
    await page.getByRole("alert").getByText(CONTACT_TEXTS.networkError).waitFor();
    await context.close();
  });

  it("lands in /admin/messages, where staff mark it read and reply by e-mail", async ({ browser }) => {
    const context = await open(browser, admin);
    const page = await context.newPage();
    await page.goto("/admin/messages");
    const card = page.getByRole("article").filter({ hasText: "anita@example.in" });
    await card.getByText("Do you deliver to Pune?").waitFor();
    await card.getByText("Reply by e-mail").click();
    await card.getByLabel("Your reply to anita@example.in").fill("Yes, in 3 to 5 days.");
    await card.getByRole("button", { name: "Send reply" }).click();
    await page.getByText("Reply sent by e-mail.").waitFor();
    const mail = (await readMails(shop.dataDir)).find((m) => m.to === "anita@example.in");
    expect(mail?.text).toContain("Yes, in 3 to 5 days.");
    // Replied means read: it has left the unread list, and shows under All with the reply.
    await card.waitFor({ state: "detached" });
    await page.getByRole("link", { name: /^All/ }).click();
    await card.getByText("You replied on").waitFor();
    await context.close();
  });
});

describe("the staff pages at phone and desktop widths, light and dark", () => {
  it("turn a customer away; a question and a review wait in the lists", async ({ browser }) => {
    const outsider = await open(browser, customer);
    const page = await outsider.newPage();
    await page.goto("/admin/reviews");
    await page.getByRole("heading", { name: "No admin access" }).waitFor();
    await outsider.close();

    // Something waiting in each list, so the screenshots show the actions.
    const asker = await open(browser, customer);
    const askPage = await asker.newPage();
    await askPage.goto("/product/coconut-oil");
    await askPage.getByLabel("Ask a question about this product").fill("Is this cold-pressed or refined?");
    await askPage.getByRole("button", { name: "Ask question" }).click();
    await askPage.getByText("Thank you!").waitFor();
    await askPage.getByRole("button", { name: "Write a review" }).click();
    await askPage.locator("label", { has: askPage.getByText("5 stars", { exact: true }) }).click();
    await askPage.getByLabel("Title").fill("Smells like home");
    await askPage
      .getByLabel("Your review")
      .fill("Pure coconut smell, melts in the palm. Good for hair and cooking.");
    await askPage.getByRole("button", { name: "Submit review" }).click();
    await askPage.getByText("Awaiting approval").waitFor();
    await asker.close();
  });

  // One test per width: each is a dozen screens with screenshots, more than a minute for both on a busy machine.
  for (const viewport of ["phone", "desktop"] as const) {
    it(`are usable at ${VIEWPORTS[viewport].width} px, with nothing wider than the screen`, async ({
      browser,
    }) => {
      // Each screen loaded once and shown in both themes (the system setting switched under it).
      const staff = await open(browser, admin, { viewport });
      const staffPage = await staff.newPage();
      for (const [path, heading] of [
        ["/admin/questions", "Customer questions"],
        ["/admin/reviews", "Product reviews"],
        ["/admin/messages?filter=all", "Messages from the contact form"],
      ] as const) {
        await staffPage.goto(path);
        await staffPage.getByRole("heading", { name: heading }).waitFor();
        for (const colorScheme of ["light", "dark"] as const) {
          await showColorScheme(staffPage, colorScheme);
          const width = await staffPage.evaluate(() => document.documentElement.scrollWidth);
          expect(width, `${path} at ${viewport}, ${colorScheme}`).toBeLessThanOrEqual(
            VIEWPORTS[viewport].width,
          );
          expect(await staffPage.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(
            colorScheme === "dark",
          );
          await screenshot(
            staffPage,
            `conversation${path.replace(/[/?=]/g, "-")}-${viewport}-${colorScheme}`,
          );
        }
      }
      await staff.close();

      const context = await open(browser, customer, {
        viewport,
        colorScheme: viewport === "phone" ? "dark" : "light",
      });
      const customerPage = await context.newPage();
      await customerPage.goto("/product/face-glow-oil");
      await customerPage.getByRole("list", { name: "Reviews" }).waitFor();
      await screenshot(customerPage, `conversation-product-${viewport}`);
      await customerPage.goto("/questions");
      await customerPage.getByRole("heading", { name: "My questions" }).waitFor();
      await screenshot(customerPage, `conversation-my-questions-${viewport}`);
      await context.close();
    });
  }
});
