import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Product } from "../../common/catalogue.ts";
import type { AdminReviewPage, MyReview, ReviewPage } from "../../common/reviews.ts";
import { makeAdmin, type TestAccount } from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";
import { readMails } from "../../tests/mail.ts";
import { signUpMany } from "../../tests/sign-up-many.ts";
import { orderLines, orders, users } from "../db/schema.ts";
import { hasDeliveredOrderWith, publicAuthorName } from "./reviews.data.ts";

const shop = setUpTestApp();
let meera: TestAccount;
let arjun: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  [meera, arjun, admin] = (await signUpMany(shop.app, [
    "meera.iyer@example.in",
    "arjun@example.in",
    "staff@example.in",
  ])) as [TestAccount, TestAccount, TestAccount];
  await makeAdmin(shop, admin);
});

const call = (method: string, path: string, options: { as?: TestAccount; body?: unknown } = {}) =>
  callApi(shop.app, method, path, options);

const review = (rating: number, title = "Lovely", body = "Soft hair after two weeks of use.") => ({
  rating,
  title,
  body,
});
const write = (as: TestAccount, productSlug: string, fields = review(5)) =>
  call("POST", "/api/reviews", { as, body: { productSlug, ...fields } });
const publicPage = async (query: string) => (await call("GET", `/api/reviews?${query}`)).body as ReviewPage;
const approve = (id: string) => call("POST", `/api/admin/reviews/${id}/approve`, { as: admin });

describe("writing a review", () => {
  it("waits for approval: the author sees it pending, nobody else sees it", async () => {
    const text = "Smells of <i>real</i> coconut.\n\nI use it every night.";
    const { status, body } = await write(meera, "coconut-oil", review(4, "Pure & simple", text));
    expect(status).toBe(201);
    expect(body.review).toMatchObject({
      status: "pending",
      rating: 4,
      title: "Pure & simple",
      body: text,
      authorName: "Meera",
      verifiedPurchase: false,
      rejectionReason: null,
    });
    expect((await publicPage("product=coconut-oil")).items).toEqual([]);
    const mine = await call("GET", "/api/reviews/mine?product=coconut-oil", { as: meera });
    expect(mine.body.review.id).toBe(body.review.id);
    expect(
      (await call("GET", "/api/reviews/mine?product=coconut-oil", { as: arjun })).body.review,
    ).toBeNull();
    expect((await call("GET", "/api/reviews/mine?product=coconut-oil")).status).toBe(401);
  });

  it.each([
    ["a rating of 0", { ...review(0) }, "rating", "Please choose a rating from 1 to 5 stars."],
    ["a rating of 4.5", { ...review(4.5) }, "rating", "Please choose a rating from 1 to 5 stars."],
    ["no title", { ...review(5, "  ") }, "title", "The title is required."],
    [
      "a 19-character text",
      { ...review(5, "Nice", "Good oil, love it!!") },
      "body",
      "Your review must be at least 20 characters long (it has 19).",
    ],
    [
      "a 2001-character text",
      { ...review(5, "Nice", "a".repeat(2001)) },
      "body",
      "Your review must be at most 2000 characters long (it has 2001).",
    ],
  ])("refuses %s with a clear message", async (_case, fields, field, message) => {
    const { status, body } = await write(arjun, "bath-powder", fields as ReturnType<typeof review>);
    expect(status).toBe(400);
    expect(body.error.fields[field]).toBe(message);
  });

  it("takes one review per customer and product, even when sent many times at once", async () => {
    const results = await Promise.all(Array.from({ length: 6 }, () => write(arjun, "moringa-powder")));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(results.find((r) => r.status === 409)?.body.error.message).toBe(
      "You have already reviewed this product. You can edit or delete your review instead.",
    );
  });

  it("refuses unknown products, extra fields and signed-out visitors", async () => {
    expect((await write(arjun, "lipstick")).status).toBe(404);
    const extra = await call("POST", "/api/reviews", {
      as: arjun,
      body: { productSlug: "bath-powder", ...review(5), status: "approved" },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error.fields).toHaveProperty("status");
    expect(
      (await call("POST", "/api/reviews", { body: { productSlug: "bath-powder", ...review(5) } })).status,
    ).toBe(401);
  });
});

describe("editing and deleting", () => {
  it("lets only the author edit or delete; an edit goes back to the approval queue", async () => {
    const { body } = await write(meera, "bath-powder", review(3));
    const id = body.review.id as string;
    await approve(id);

    // Another's review answers exactly as one that does not exist, so its id confirms nothing.
    const missing = "00000000-0000-4000-8000-000000000000";
    for (const method of ["PUT", "DELETE"]) {
      const body = method === "PUT" ? review(1) : undefined;
      const hijack = await call(method, `/api/reviews/${id}`, { as: arjun, body });
      const nothing = await call(method, `/api/reviews/${missing}`, { as: arjun, body });
      expect(hijack).toEqual({ status: 404, body: nothing.body });
      expect(nothing.status).toBe(404);
    }
    expect((await call("PUT", `/api/reviews/${id}`, { body: review(1) })).status).toBe(401);
    expect((await publicPage("product=bath-powder")).items.map((r) => r.rating)).toEqual([3]);

    const unchanged = await call("PUT", `/api/reviews/${id}`, { as: meera, body: review(3) });
    expect(unchanged.body.review.status).toBe("approved");

    const edited = await call("PUT", `/api/reviews/${id}`, {
      as: meera,
      body: review(4, "Better with time", "Softer skin after a month, I like it now."),
    });
    expect(edited.status).toBe(200);
    expect(edited.body.review).toMatchObject({ status: "pending", rating: 4, title: "Better with time" });
    expect((await publicPage("product=bath-powder")).items).toEqual([]);

    expect((await call("DELETE", `/api/reviews/${id}`, { as: meera })).status).toBe(200);
    expect(
      (await call("GET", "/api/reviews/mine?product=bath-powder", { as: meera })).body.review,
    ).toBeNull();
    expect((await call("DELETE", `/api/reviews/${id}`, { as: meera })).status).toBe(404);
  });
});

describe("moderation", () => {
  it("rejects with a reason the author sees and is e-mailed, and approves after an edit", async () => {
    const { body } = await write(
      arjun,
      "face-wash-powder",
      review(1, "Scam", "Total scam, call 98765 for real stuff"),
    );
    const id = body.review.id as string;

    const pending = (await call("GET", "/api/admin/reviews", { as: admin })).body as AdminReviewPage;
    expect(pending.items.find((r) => r.id === id)).toMatchObject({
      status: "pending",
      author: { name: "arjun", email: "arjun@example.in" },
      product: { slug: "face-wash-powder", name: "Face Wash Powder" },
    });

    const rejected = await call("POST", `/api/admin/reviews/${id}/reject`, {
      as: admin,
      body: { reason: "Reviews may not contain phone numbers." },
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.authorNotified).toBe(true);
    const mine = (await call("GET", "/api/reviews/mine?product=face-wash-powder", { as: arjun })).body
      .review as MyReview;
    expect(mine).toMatchObject({
      status: "rejected",
      rejectionReason: "Reviews may not contain phone numbers.",
    });
    const mail = (await readMails(shop.dataDir)).find(
      (m) => m.to === "arjun@example.in" && m.subject.includes("review"),
    );
    expect(mail?.subject).toBe("Your review of Face Wash Powder was not published");
    expect(mail?.text).toContain("Reviews may not contain phone numbers.");

    expect(
      (await call("POST", `/api/admin/reviews/${id}/reject`, { as: admin, body: { reason: "" } })).body.error
        .fields.reason,
    ).toBe("The reason is required.");

    const edited = await call("PUT", `/api/reviews/${id}`, {
      as: arjun,
      body: review(2, "Not for me", "Dried my skin a little, but it is gentle."),
    });
    expect(edited.body.review).toMatchObject({ status: "pending", rejectionReason: null });
    expect((await approve(id)).body.review.status).toBe("approved");
    expect((await publicPage("product=face-wash-powder")).items.map((r) => r.title)).toEqual(["Not for me"]);
  });

  it("replies in public under the review, and can take the reply back", async () => {
    const { body } = await write(
      meera,
      "face-wash-powder",
      review(5, "Gentle", "Gentle enough for daily use."),
    );
    await approve(body.review.id);
    const replied = await call("PUT", `/api/admin/reviews/${body.review.id}/reply`, {
      as: admin,
      body: { reply: "Thank you, Meera!" },
    });
    expect(replied.status).toBe(200);
    const shown = (await publicPage("product=face-wash-powder")).items.find((r) => r.id === body.review.id);
    expect(shown?.reply).toEqual({ text: "Thank you, Meera!", repliedAt: expect.any(String) });
    await call("DELETE", `/api/admin/reviews/${body.review.id}/reply`, { as: admin });
    expect(
      (await publicPage("product=face-wash-powder")).items.find((r) => r.id === body.review.id)?.reply,
    ).toBeNull();
  });

  const id = "00000000-0000-4000-8000-000000000000";
  const endpoints: [string, string, unknown][] = [
    ["GET", "/api/admin/reviews", undefined],
    ["GET", "/api/admin/reviews?status=approved", undefined],
    ["POST", `/api/admin/reviews/${id}/approve`, undefined],
    ["POST", `/api/admin/reviews/${id}/reject`, { reason: "Spam, sorry." }],
    ["PUT", `/api/admin/reviews/${id}/reply`, { reply: "Thanks" }],
    ["DELETE", `/api/admin/reviews/${id}/reply`, undefined],
  ];
  it.each(endpoints)("%s %s: 401 signed out, 403 for a customer", async (method, path, body) => {
    expect((await call(method, path, { body })).status).toBe(401);
    const asCustomer = await call(method, path, { as: meera, body });
    expect(asCustomer.status).toBe(403);
    expect(asCustomer.body.error.code).toBe("forbidden");
  });
});

describe("the product's rating", () => {
  it("combines the catalogue's rating and count with approved reviews, everywhere the product shows", async () => {
    const before = (await call("GET", "/api/products/hair-growth-serum")).body as Product;
    const [a, b, c] = await signUpMany(shop.app, ["one@example.in", "two@example.in", "three@example.in"]);
    const ids: string[] = [];
    for (const [account, rating] of [
      [a, 1],
      [b, 2],
      [c, 5],
    ] as const) {
      if (!account) throw new Error("sign-up failed");
      ids.push((await write(account, "hair-growth-serum", review(rating))).body.review.id);
    }
    for (const id of ids.slice(0, 2)) await approve(id); // the 5-star one stays pending

    const expected =
      Math.round(((before.rating * before.reviewCount + 1 + 2) / (before.reviewCount + 2)) * 10) / 10;
    // The catalogue is held in memory and forgotten when PostgreSQL announces the approval (decision 026):
    // the announcement arrives moments after the approval's answer.
    await vi.waitFor(async () => {
      const after = (await call("GET", "/api/products/hair-growth-serum")).body as Product;
      expect(after.reviewCount).toBe(before.reviewCount + 2);
      expect(after.rating).toBe(expected);
      const listed = (await call("GET", "/api/products?pageSize=100")).body.items as Product[];
      expect(listed.find((p) => p.slug === "hair-growth-serum")).toMatchObject({
        rating: expected,
        reviewCount: before.reviewCount + 2,
      });
    });

    const page = await publicPage("product=hair-growth-serum");
    expect(page.summary).toEqual({
      rating: expected,
      ratingCount: before.reviewCount + 2,
      approvedCount: 2,
      breakdown: [
        { stars: 5, count: 0 },
        { stars: 4, count: 0 },
        { stars: 3, count: 0 },
        { stars: 2, count: 1 },
        { stars: 1, count: 1 },
      ],
    });
  });

  it("sorts approved reviews newest, highest or lowest first, ten to a page", async () => {
    const accounts = await signUpMany(
      shop.app,
      Array.from({ length: 12 }, (_, i) => `sorter${i}@example.in`),
    );
    for (const [index, account] of accounts.entries()) {
      const { body } = await write(account, "sathu-maavu", review((index % 5) + 1, `Review ${index}`));
      await approve(body.review.id);
    }
    const newest = await publicPage("product=sathu-maavu");
    expect(newest.items.map((r) => r.title).slice(0, 3)).toEqual(["Review 11", "Review 10", "Review 9"]);
    expect(newest).toMatchObject({ total: 12, pageSize: 10, page: 1, sort: "newest" });
    expect((await publicPage("product=sathu-maavu&page=2")).items).toHaveLength(2);

    const highest = await publicPage("product=sathu-maavu&sort=highest");
    expect(highest.items.map((r) => r.rating).slice(0, 3)).toEqual([5, 5, 4]);
    expect(highest.items[0]?.title).toBe("Review 9");
    const lowest = await publicPage("product=sathu-maavu&sort=lowest");
    expect(lowest.items.map((r) => r.rating).slice(0, 4)).toEqual([1, 1, 1, 2]);

    expect((await call("GET", "/api/reviews?product=sathu-maavu&sort=best")).status).toBe(400);
    expect((await call("GET", "/api/reviews?product=lipstick")).status).toBe(404);
  });
});

describe("a deleted account", () => {
  it("keeps its approved review, anonymised, and its rating in the product's figures", async () => {
    const [leaver] = (await signUpMany(shop.app, ["leaver@example.in"])) as [TestAccount];
    const { body } = await write(
      leaver,
      "abc-malt",
      review(4, "Kids love it", "My kids drink it every morning."),
    );
    await approve(body.review.id);
    await shop.db.delete(users).where(eq(users.id, leaver.userId));

    const page = await publicPage("product=abc-malt");
    expect(page.items).toEqual([
      expect.objectContaining({ id: body.review.id, authorName: "Former customer" }),
    ]);
    expect(JSON.stringify(page)).not.toContain("leaver");
    expect(page.summary.approvedCount).toBe(1);
  });
});

describe("the public author name", () => {
  it.each([
    ["Priya Sharma", "Priya"],
    ["priya.sharma92", "Priya"],
    ["  ", "Customer"],
    ["प्रिया", "प्रिया"],
    [null, "Former customer"],
  ])("%s reads %s", (name, shown) => {
    expect(publicAuthorName(name)).toBe(shown);
  });
});

describe("verified purchase", () => {
  it("is true only for a delivered order holding the product or a combo with it", async () => {
    const [buyer] = (await signUpMany(shop.app, ["buyer@example.in"])) as [TestAccount];
    expect(await hasDeliveredOrderWith(shop.db, buyer.userId, "face-glow-oil")).toBe(false);

    await placeOrderRow(buyer.userId, "o-shipped", "shipped", ["hair-growth-oil"]);
    await placeOrderRow(buyer.userId, "o-delivered", "delivered", ["face-glow-oil", "nutrition-combo"]);
    await placeOrderRow(meera.userId, "o-other", "delivered", ["protein-mix"]);

    expect(await hasDeliveredOrderWith(shop.db, buyer.userId, "face-glow-oil")).toBe(true);
    expect(await hasDeliveredOrderWith(shop.db, buyer.userId, "hair-growth-oil")).toBe(false); // not delivered yet
    expect(await hasDeliveredOrderWith(shop.db, buyer.userId, "moringa-powder")).toBe(true); // in the combo
    expect(await hasDeliveredOrderWith(shop.db, buyer.userId, "protein-mix")).toBe(true); // in the combo
    expect(await hasDeliveredOrderWith(shop.db, meera.userId, "face-glow-oil")).toBe(false); // someone else's order
    expect(await hasDeliveredOrderWith(shop.db, meera.userId, "protein-mix")).toBe(true);

    const bought = await write(
      buyer,
      "face-glow-oil",
      review(5, "Glow", "My skin glows after a week of use."),
    );
    const notBought = await write(
      arjun,
      "face-glow-oil",
      review(4, "Nice", "Light oil, absorbs quickly, good."),
    );
    await approve(bought.body.review.id);
    await approve(notBought.body.review.id);
    const page = await publicPage("product=face-glow-oil");
    expect(Object.fromEntries(page.items.map((r) => [r.title, r.verifiedPurchase]))).toEqual({
      Glow: true,
      Nice: false,
    });
    expect(bought.body.review.verifiedPurchase).toBe(true);
    const staff = (await call("GET", "/api/admin/reviews?status=approved", { as: admin }))
      .body as AdminReviewPage;
    expect(
      Object.fromEntries(
        staff.items
          .filter((r) => r.product.slug === "face-glow-oil")
          .map((r) => [r.title, r.verifiedPurchase]),
      ),
    ).toEqual({ Glow: true, Nice: false });
  });
});

/** An order as the checkout writes it, reduced to what the verified-purchase check reads. */
async function placeOrderRow(userId: string, id: string, status: "shipped" | "delivered", itemIds: string[]) {
  await shop.db.insert(orders).values({
    id,
    number: `PN-TEST-${id}`,
    userId,
    status,
    paymentMethod: "cod",
    subtotalPaise: 49900,
    shippingPaise: 0,
    totalPaise: 49900,
    shipName: "Test Buyer",
    shipPhone: "9876543210",
    shipLine1: "12 MG Road",
    shipCity: "Bengaluru",
    shipState: "Karnataka",
    shipPin: "560001",
    estimatedDeliveryFrom: "2026-11-25",
    estimatedDeliveryTo: "2026-11-28",
  });
  await shop.db.insert(orderLines).values(
    itemIds.map((itemId, position) => ({
      orderId: id,
      position,
      itemId,
      kind: itemId.endsWith("-combo") ? ("combo" as const) : ("product" as const),
      name: itemId,
      image: itemId,
      unitPricePaise: 49900,
      quantity: 1,
      lineTotalPaise: 49900,
    })),
  );
}
