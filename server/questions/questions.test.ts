import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminQuestionPage, MyQuestion, PublicQuestion } from "../../common/questions.ts";
import { makeAdmin, type TestAccount } from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";
import { readMails, type SentMail } from "../../tests/mail.ts";
import { signUpMany } from "../../tests/sign-up-many.ts";
import { users } from "../db/schema.ts";

const shop = setUpTestApp();
let asha: TestAccount;
let ravi: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  [asha, ravi, admin] = (await signUpMany(shop.app, [
    "asha@example.in",
    "ravi@example.in",
    "staff@example.in",
  ])) as [TestAccount, TestAccount, TestAccount];
  await makeAdmin(shop, admin);
});

const call = (method: string, path: string, options: { as?: TestAccount; body?: unknown } = {}) =>
  callApi(shop.app, method, path, options);

const ask = (as: TestAccount, question: string, productSlug = "hair-growth-oil") =>
  call("POST", "/api/questions", { as, body: { productSlug, question } });

const publicQuestions = async (slug: string) =>
  (await call("GET", `/api/questions?product=${slug}`)).body.items as PublicQuestion[];

describe("asking a question", () => {
  it("stores the question exactly as written and shows it to its asker as awaiting an answer", async () => {
    const text = "Is it safe for <b>coloured</b> hair?\n  Asking for my mother.  ";
    const { status, body } = await ask(asha, text);
    expect(status).toBe(201);
    expect(body.question).toMatchObject({
      question: text,
      status: "awaiting-answer",
      answer: null,
      hidden: false,
      product: { slug: "hair-growth-oil", name: "Hair Growth Oil" },
    });

    const mine = (await call("GET", "/api/questions/mine", { as: asha })).body.items as MyQuestion[];
    expect(mine.map((q) => q.question)).toContain(text);
    expect(await publicQuestions("hair-growth-oil")).toEqual([]);
  });

  it.each([
    ["a blank question", "          ", "Your question is required."],
    ["9 characters", "Too short", "Your question must be at least 10 characters long (it has 9)."],
    [
      "1001 characters",
      "x".repeat(1001),
      "Your question must be at most 1000 characters long (it has 1001).",
    ],
  ])("refuses %s with a clear message", async (_case, question, message) => {
    const { status, body } = await ask(asha, question);
    expect(status).toBe(400);
    expect(body.error.fields.question).toBe(message);
  });

  it("counts characters, not UTF-16 units: 1000 Devanagari letters and emoji fit", async () => {
    const question = "क".repeat(990) + "🌿".repeat(10);
    expect((await ask(asha, question, "coconut-oil")).status).toBe(201);
  });

  it("needs a session, a known product and no extra fields", async () => {
    const signedOut = await call("POST", "/api/questions", {
      body: { productSlug: "hair-growth-oil", question: "Does it smell strong?" },
    });
    expect(signedOut.status).toBe(401);
    expect((await ask(asha, "Does it come in a bigger size?", "lipstick")).status).toBe(404);
    const extra = await call("POST", "/api/questions", {
      as: asha,
      body: { productSlug: "hair-growth-oil", question: "Does it smell strong?", answer: "Yes" },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.error.fields).toHaveProperty("answer");
  });
});

describe("one customer's questions are theirs alone", () => {
  it("lists only the signed-in customer's own questions, and nothing signed out", async () => {
    await ask(ravi, "How long does one bottle last?");
    const ashas = (await call("GET", "/api/questions/mine", { as: asha })).body.items as MyQuestion[];
    const ravis = (await call("GET", "/api/questions/mine", { as: ravi })).body.items as MyQuestion[];
    expect(ravis.map((q) => q.question)).toEqual(["How long does one bottle last?"]);
    expect(ashas.some((q) => q.question === "How long does one bottle last?")).toBe(false);
    expect(JSON.stringify(ravis)).not.toContain("asha@example.in");
    expect((await call("GET", "/api/questions/mine")).status).toBe(401);
  });
});

describe("answering", () => {
  it("lists a new question first among the unanswered, publishes the answer, and e-mails the asker once", async () => {
    const { body: asked } = await ask(asha, "Can children use this oil?", "coconut-oil");
    const id = asked.question.id as string;

    const queue = (await call("GET", "/api/admin/questions?status=unanswered", { as: admin }))
      .body as AdminQuestionPage;
    expect(queue.items[0]?.id).toBe(id);
    expect(queue.items.every((q) => q.status === "awaiting-answer" && !q.hidden)).toBe(true);
    expect(queue.items.find((q) => q.id === id)?.asker).toEqual({ name: "asha", email: "asha@example.in" });

    const answered = await call("PUT", `/api/admin/questions/${id}/answer`, {
      as: admin,
      body: { answer: "Yes, from 3 years of age.\nPatch-test first." },
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ customerNotified: true, question: { status: "answered" } });

    expect(await publicQuestions("coconut-oil")).toEqual([
      expect.objectContaining({
        id,
        question: "Can children use this oil?",
        answer: "Yes, from 3 years of age.\nPatch-test first.",
      }),
    ]);
    const mine = (await call("GET", "/api/questions/mine", { as: asha })).body.items as MyQuestion[];
    expect(mine.find((q) => q.id === id)).toMatchObject({
      status: "answered",
      answeredAt: expect.any(String),
    });

    const answerMail = (m: SentMail) => m.to === "asha@example.in" && m.subject.includes("question");
    const mail = (await readMails(shop.dataDir)).filter(answerMail);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe("Your question about Coconut Oil has been answered");
    expect(mail[0]?.text).toContain("Yes, from 3 years of age.");
    expect(mail[0]?.text).toContain("http://localhost:3000/questions");

    const edited = await call("PUT", `/api/admin/questions/${id}/answer`, {
      as: admin,
      body: { answer: "Yes, from 3 years of age. Patch-test on the arm first." },
    });
    expect(edited.body.customerNotified).toBe(false);
    expect((await publicQuestions("coconut-oil"))[0]?.answer).toBe(
      "Yes, from 3 years of age. Patch-test on the arm first.",
    );
    expect((await readMails(shop.dataDir)).filter(answerMail)).toHaveLength(1);
  });

  it("sends one e-mail when two staff answer the same question at the same moment", async () => {
    const { body: asked } = await ask(ravi, "Is the bottle recyclable?", "face-glow-oil");
    const id = asked.question.id as string;
    const results = await Promise.all(
      ["Yes, it is glass.", "Yes: amber glass.", "It is glass, yes.", "Glass, so yes."].map((answer) =>
        call("PUT", `/api/admin/questions/${id}/answer`, { as: admin, body: { answer } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(results.filter((r) => r.body.customerNotified)).toHaveLength(1);
    const mail = (await readMails(shop.dataDir)).filter((m) => m.subject.includes("Face Glow Oil"));
    expect(mail).toHaveLength(1);
  });

  it("hides a question from the product page but not from its asker", async () => {
    const { body: asked } = await ask(ravi, "Buy cheap followers at spam.example", "face-glow-oil");
    const id = asked.question.id as string;
    await call("PUT", `/api/admin/questions/${id}/answer`, { as: admin, body: { answer: "No." } });
    expect((await publicQuestions("face-glow-oil")).map((q) => q.id)).toContain(id);

    const hidden = await call("PUT", `/api/admin/questions/${id}/visibility`, {
      as: admin,
      body: { hidden: true },
    });
    expect(hidden.body.question.hidden).toBe(true);
    expect((await publicQuestions("face-glow-oil")).map((q) => q.id)).not.toContain(id);
    const mine = (await call("GET", "/api/questions/mine", { as: ravi })).body.items as MyQuestion[];
    expect(mine.find((q) => q.id === id)?.hidden).toBe(true);

    const hiddenList = (await call("GET", "/api/admin/questions?status=hidden", { as: admin })).body;
    expect(hiddenList.items.map((q: { id: string }) => q.id)).toEqual([id]);
    expect(hiddenList.counts.hidden).toEqual({ count: 1, exact: true });

    await call("PUT", `/api/admin/questions/${id}/visibility`, { as: admin, body: { hidden: false } });
    expect((await publicQuestions("face-glow-oil")).map((q) => q.id)).toContain(id);
  });

  it("answers an unknown question with 404 and a blank answer with 400", async () => {
    const missing = await call("PUT", "/api/admin/questions/00000000-0000-4000-8000-000000000000/answer", {
      as: admin,
      body: { answer: "Hello" },
    });
    expect(missing.status).toBe(404);
    const { body: asked } = await ask(ravi, "Does it contain any mineral oil?", "hair-growth-serum");
    const blank = await call("PUT", `/api/admin/questions/${asked.question.id}/answer`, {
      as: admin,
      body: { answer: "   " },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.error.fields.answer).toBe("The answer is required.");
  });
});

describe("moderation is for admins only", () => {
  const id = "00000000-0000-4000-8000-000000000000";
  const endpoints: [string, string, unknown][] = [
    ["GET", "/api/admin/questions", undefined],
    ["GET", "/api/admin/questions?status=bogus", undefined],
    ["PUT", `/api/admin/questions/${id}/answer`, { answer: "Yes" }],
    ["PUT", `/api/admin/questions/not-an-id/answer`, {}],
    ["PUT", `/api/admin/questions/${id}/visibility`, { hidden: true }],
  ];
  it.each(endpoints)("%s %s: 401 signed out, 403 for a customer", async (method, path, body) => {
    expect((await call(method, path, { body })).status).toBe(401);
    const asCustomer = await call(method, path, { as: asha, body });
    expect(asCustomer.status).toBe(403);
    expect(asCustomer.body.error.code).toBe("forbidden");
  });
});

describe("a deleted account", () => {
  it("keeps its answered questions on the product page, with no asker", async () => {
    const [leaver] = (await signUpMany(shop.app, ["leaver@example.in"])) as [TestAccount];
    const { body: asked } = await ask(leaver, "Is it suitable for oily scalp?", "hair-wash-powder");
    await call("PUT", `/api/admin/questions/${asked.question.id}/answer`, {
      as: admin,
      body: { answer: "Yes." },
    });
    await shop.db.delete(users).where(eq(users.id, leaver.userId));

    expect((await publicQuestions("hair-wash-powder")).map((q) => q.id)).toEqual([asked.question.id]);
    const queue = (await call("GET", "/api/admin/questions?status=answered", { as: admin }))
      .body as AdminQuestionPage;
    expect(queue.items.find((q) => q.id === asked.question.id)?.asker).toBeNull();
  });
});
