import { and, count, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestAccount } from "../../tests/accounts.ts";
import { callApi, jsonRequest, setUpTestApp } from "../../tests/database.ts";
import { signUpMany } from "../../tests/sign-up-many.ts";
import { passTime } from "../../tests/throttles.ts";
import { products, questions, reviews } from "../db/schema.ts";
import { ACCOUNT_LIMITS, type AccountAction, accountAllowanceKey } from "./account-throttle.ts";

const shop = setUpTestApp();
let flooder: TestAccount;
let patient: TestAccount;
let reviewer: TestAccount;
let neighbour: TestAccount;

beforeAll(async () => {
  [flooder, patient, reviewer, neighbour] = (await signUpMany(shop.app, [
    "flooder@example.in",
    "patient@example.in",
    "reviewer@example.in",
    "neighbour@example.in",
  ])) as [TestAccount, TestAccount, TestAccount, TestAccount];
});

const ask = (as: TestAccount, index: number) =>
  callApi(shop.app, "POST", "/api/questions", {
    as,
    body: {
      productSlug: "hair-growth-oil",
      question: `Question number ${index}: how often should I use it?`,
    },
  });

const write = (as: TestAccount, productSlug: string) =>
  callApi(shop.app, "POST", "/api/reviews", {
    as,
    body: { productSlug, rating: 4, title: "Good", body: "Works well for me, would buy it again." },
  });

async function storedQuestions(userId: string) {
  const [row] = await shop.db.select({ n: count() }).from(questions).where(eq(questions.userId, userId));
  return row?.n;
}

/** Moves an account's counted actions into the past, as if the shopper had waited. */
async function wait(userId: string, minutes: number) {
  const keys = Object.entries(ACCOUNT_LIMITS).flatMap(([action, { rules }]) =>
    rules.map((rule) => accountAllowanceKey(userId, action as AccountAction, rule)),
  );
  await passTime(shop.db, keys, minutes);
}

function tally(statuses: number[]) {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe("questions per account", () => {
  it("stores exactly 5 of 40 questions sent at once, and tells the rest when to try again", async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => ask(flooder, i)));
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 5, 429: 35 });
    expect(await storedQuestions(flooder.userId)).toBe(5);

    const refused = results.find((r) => r.status === 429);
    expect(refused?.body.error).toEqual({
      code: "too_many_questions",
      message: "You have asked 5 questions in the last 10 minutes. Please try again in 10 minutes.",
    });
    const response = await shop.app.request(
      "/api/questions",
      jsonRequest({
        method: "POST",
        cookie: flooder.cookie,
        body: { productSlug: "coconut-oil", question: "One more: is it cold pressed?" },
      }),
    );
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(500);
    expect(Number(response.headers.get("retry-after"))).toBeLessThanOrEqual(600);

    // The limit is the account's own: another shopper asks as usual.
    expect((await ask(neighbour, 1)).status).toBe(201);
  });

  it("allows 20 a day, 5 at a time", async () => {
    for (let round = 0; round < 4; round++) {
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => ask(patient, round * 10 + i)));
      expect(tally(results.map((r) => r.status))).toEqual({ 201: 5, 429: 1 });
      await wait(patient.userId, 11);
    }
    expect(await storedQuestions(patient.userId)).toBe(20);
    const refused = await ask(patient, 99);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(
      "You have asked 20 questions in the last 24 hours. Please try again in 24 hours.",
    );
    await wait(patient.userId, 24 * 60);
    expect((await ask(patient, 100)).status).toBe(201);
  });
});

describe("reviews per account", () => {
  it("stores exactly 5 of a review of every product sent at once; deleting one gives no allowance back", async () => {
    const slugs = (await shop.db.select({ slug: products.slug }).from(products)).map((p) => p.slug);
    expect(slugs.length).toBeGreaterThan(20);
    const results = await Promise.all(slugs.map((slug) => write(reviewer, slug)));
    expect(tally(results.map((r) => r.status))).toEqual({ 201: 5, 429: slugs.length - 5 });
    const stored = await shop.db
      .select({ id: reviews.id, slug: reviews.productSlug })
      .from(reviews)
      .where(eq(reviews.userId, reviewer.userId));
    expect(stored).toHaveLength(5);
    expect(results.find((r) => r.status === 429)?.body.error).toEqual({
      code: "too_many_reviews",
      message: "You have written 5 reviews in the last 10 minutes. Please try again in 10 minutes.",
    });

    const [first] = stored;
    if (!first) throw new Error("no review stored");
    expect((await callApi(shop.app, "DELETE", `/api/reviews/${first.id}`, { as: reviewer })).status).toBe(
      200,
    );
    expect((await write(reviewer, first.slug)).status).toBe(429);
    const left = await shop.db
      .select({ n: count() })
      .from(reviews)
      .where(and(eq(reviews.userId, reviewer.userId), eq(reviews.productSlug, first.slug)));
    expect(left[0]?.n).toBe(0);
  });

  it("answers an existing review with 409, not 429, and does not count it", async () => {
    await wait(reviewer.userId, 11);
    const [own] = await shop.db
      .select({ slug: reviews.productSlug })
      .from(reviews)
      .where(eq(reviews.userId, reviewer.userId))
      .limit(1);
    if (!own) throw new Error("no review stored");
    const again = await Promise.all(Array.from({ length: 8 }, () => write(reviewer, own.slug)));
    expect(tally(again.map((r) => r.status))).toEqual({ 409: 8 });
  });
});
