import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminMessagePage, ContactMessage } from "../../common/contact.ts";
import { makeAdmin, type TestAccount } from "../../tests/accounts.ts";
import { callApi, createTestApp, setUpTestApp, TEST_ORIGIN, type TestApp } from "../../tests/database.ts";
import { readMails, waitForMail } from "../../tests/mail.ts";
import { signUpMany } from "../../tests/sign-up-many.ts";
import { passTime } from "../../tests/throttles.ts";
import { contactMessages } from "../db/schema.ts";

const shop = setUpTestApp();
let customer: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  [customer, admin] = (await signUpMany(shop.app, ["kavya@example.in", "staff@example.in"])) as [
    TestAccount,
    TestAccount,
  ];
  await makeAdmin(shop, admin);
});

let nextAddress = 1;
/** Each test writes from its own client address unless it says otherwise, so per-address limits stay apart. */
const freshAddress = () => `203.0.113.${nextAddress++}`;

async function send(body: unknown, options: { app?: TestApp; ip?: string } = {}) {
  const response = await (options.app ?? shop).app.request("/api/contact", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      Origin: TEST_ORIGIN,
      "X-Forwarded-For": `10.1.1.1, ${options.ip ?? freshAddress()}`,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: await response.json(),
  };
}

const call = (method: string, path: string, options: { as?: TestAccount; body?: unknown } = {}) =>
  callApi(shop.app, method, path, options);

const storedFrom = (email: string) =>
  shop.db.select().from(contactMessages).where(eq(contactMessages.email, email));

describe("POST /api/contact", () => {
  it("stores the message exactly as written and answers { ok: true }", async () => {
    const message = "Do you ship to Singapore?\n<script>alert(1)</script>  ";
    const { status, body } = await send({ name: "Kavya R", email: "kavya@example.in", message });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true });
    const [stored] = await storedFrom("kavya@example.in");
    expect(stored).toMatchObject({ name: "Kavya R", message, readAt: null });
  });

  it.each([
    [{ email: "a@example.in", message: "Hi" }, "name", "Your name is required."],
    [{ name: "A", message: "Hi" }, "email", "Your e-mail address is required."],
    [{ name: "A", email: "not-an-address", message: "Hi" }, "email", "Please enter a valid e-mail address."],
    [{ name: "A", email: "a@example.in", message: "   " }, "message", "Your message is required."],
    [
      { name: "A", email: "a@example.in", message: "m".repeat(5001) },
      "message",
      "Your message must be at most 5000 characters long (it has 5001).",
    ],
    [
      { name: "A", email: "a@example.in", message: "Hi", phone: "123" },
      "phone",
      'The field "phone" is not accepted here.',
    ],
  ])("refuses %j in the API's error shape, naming %s", async (input, field, message) => {
    const { status, body } = await send(input);
    expect(status).toBe(400);
    expect(body).toEqual({ error: { code: "invalid_request", message, fields: { [field]: message } } });
  });

  it("takes 5000 characters, and answers unreadable or oversized bodies in the same shape", async () => {
    expect((await send({ name: "A", email: "long@example.in", message: "m".repeat(5000) })).status).toBe(200);
    const garbled = await send("{not json");
    expect(garbled.status).toBe(400);
    expect(garbled.body.error.message).toBe("The message could not be read. Please try again.");
    const huge = await send({ name: "A", email: "huge@example.in", message: "m".repeat(70_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe("payload_too_large");
  });

  it("tells a bot that filled the honeypot all went well, and stores nothing", async () => {
    const { status, body } = await send({
      name: "Bot",
      email: "bot@example.in",
      message: "Cheap SEO",
      company: "Spam Ltd",
    });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true });
    expect(await storedFrom("bot@example.in")).toEqual([]);
    // People leave it empty, which is accepted.
    expect(
      (await send({ name: "P", email: "person@example.in", message: "Hello", company: "" })).body,
    ).toEqual({
      ok: true,
    });
  });

  it("takes at most 5 messages an hour from one e-mail address, however they arrive", async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        send({
          name: "Flood",
          email: i % 2 ? "Flood@Example.in" : "flood@example.in",
          message: `Message ${i}`,
        }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(5);
    expect(limited[0]?.body.error.message).toBe(
      "You have sent 5 messages in the last hour. Please wait a while before sending another, or call us on +91 98765 43210.",
    );
    const stored = await shop.db.select().from(contactMessages);
    expect(stored.filter((m) => m.email.toLowerCase() === "flood@example.in")).toHaveLength(5);
  });

  it("takes at most 5 messages an hour from one client address", async () => {
    const ip = freshAddress();
    const answers = [];
    for (let i = 0; i < 6; i++) {
      answers.push(await send({ name: "N", email: `sender${i}@example.in`, message: "Hello" }, { ip }));
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429]);
    // Like every other limit, it says when to try again.
    expect(Number(answers[5]?.retryAfter)).toBeGreaterThan(3500);
    expect(Number(answers[5]?.retryAfter)).toBeLessThanOrEqual(3600);
    // Another address is not held back by it.
    expect((await send({ name: "N", email: "sender9@example.in", message: "Hello" })).status).toBe(200);
  });

  it("forgets messages older than an hour when counting", async () => {
    const email = "patient@example.in";
    for (let i = 0; i < 5; i++) expect((await send({ name: "P", email, message: "Hi" })).status).toBe(200);
    expect((await send({ name: "P", email, message: "Hi" })).status).toBe(429);
    await passTime(shop.db, [`contact:email:${email}`], 61);
    expect((await send({ name: "P", email, message: "Hi" })).status).toBe(200);
  });
});

describe("forwarding", () => {
  let receiver: Server;
  let received: { headers: Record<string, unknown>; body: unknown }[];
  let forwarding: TestApp;

  beforeAll(async () => {
    received = [];
    receiver = createServer((request, response) => {
      let data = "";
      request.on("data", (chunk) => {
        data += chunk;
      });
      request.on("end", () => {
        const body = JSON.parse(data);
        received.push({ headers: request.headers, body });
        response.setHeader("Content-Type", "application/json");
        if (body.message === "reject me") {
          response.statusCode = 422;
          response.end(JSON.stringify({ ok: false, errors: [{ message: "Form is disabled" }] }));
        } else {
          response.end(JSON.stringify({ ok: true }));
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const { port } = receiver.address() as AddressInfo;
    forwarding = await createTestApp({
      CONTACT_FORWARD_URL: `http://127.0.0.1:${port}/f/abc`,
      CONTACT_FORWARD_EMAIL: "inbox@prakriti.example",
    });
  });
  afterAll(async () => {
    await forwarding?.close();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  const forwardingOutcome = async (email: string) => {
    for (let i = 0; i < 100; i++) {
      const [row] = await forwarding.db
        .select()
        .from(contactMessages)
        .where(eq(contactMessages.email, email));
      if (row?.forwardedAt || row?.forwardError) return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error("forwarding did not finish");
  };

  it("posts {name, email, message} as JSON to the form endpoint and e-mails the inbox, replying to the sender", async () => {
    const message = { name: "Lakshmi", email: "lakshmi@example.in", message: "Is the hair dye henna-based?" };
    expect((await send(message, { app: forwarding })).body).toEqual({ ok: true });
    const row = await forwardingOutcome("lakshmi@example.in");
    expect(row.forwardError).toBeNull();
    expect(received.at(-1)?.body).toEqual(message);
    expect(received.at(-1)?.headers).toMatchObject({
      accept: "application/json",
      "content-type": "application/json",
    });
    const mail = await waitForMail(forwarding.dataDir, { to: "inbox@prakriti.example" });
    expect(mail).toMatchObject({ subject: "Contact form: Lakshmi", replyTo: "lakshmi@example.in" });
    expect(mail.text).toContain("Is the hair dye henna-based?");
  });

  it("keeps the message and records why when the form endpoint refuses it", async () => {
    const { body } = await send(
      { name: "L", email: "refused@example.in", message: "reject me" },
      { app: forwarding },
    );
    expect(body).toEqual({ ok: true });
    const row = await forwardingOutcome("refused@example.in");
    expect(row.forwardError).toBe("form endpoint: Form is disabled");
    expect(row.forwardedAt).toBeNull();
  });
});

describe("the admin inbox", () => {
  it("lists unread messages newest first, marks them read or unread, and replies by e-mail", async () => {
    await send({
      name: "Neha",
      email: "neha@example.in",
      message: "Where is my parcel?\nOrder from Monday.",
    });
    const inbox = (await call("GET", "/api/admin/messages", { as: admin })).body as AdminMessagePage;
    const neha = inbox.items[0] as ContactMessage;
    expect(neha).toMatchObject({
      name: "Neha",
      email: "neha@example.in",
      message: "Where is my parcel?\nOrder from Monday.",
      read: false,
      replies: [],
    });
    expect(inbox.unreadCount).toEqual(inbox.total);
    expect(inbox.allCount).toEqual({
      count: (await shop.db.select().from(contactMessages)).length,
      exact: true,
    });

    const read = await call("PUT", `/api/admin/messages/${neha.id}/read`, {
      as: admin,
      body: { read: true },
    });
    expect(read.body.message.read).toBe(true);
    const unread = (await call("GET", "/api/admin/messages?filter=unread", { as: admin }))
      .body as AdminMessagePage;
    expect(unread.items.map((m) => m.id)).not.toContain(neha.id);
    await call("PUT", `/api/admin/messages/${neha.id}/read`, { as: admin, body: { read: false } });

    const reply = await call("POST", `/api/admin/messages/${neha.id}/replies`, {
      as: admin,
      body: { message: "It left our warehouse today; you will have it by Friday." },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.message).toMatchObject({
      read: true,
      replies: [
        { body: "It left our warehouse today; you will have it by Friday.", sentAt: expect.any(String) },
      ],
    });
    const mail = (await readMails(shop.dataDir)).find((m) => m.to === "neha@example.in");
    expect(mail).toMatchObject({
      subject: "Re: your message to Prakriti Naturals",
      replyTo: "care@prakritinaturals.in",
    });
    expect(mail?.text).toContain("It left our warehouse today");
    expect(mail?.text).toContain("> Where is my parcel?\n> Order from Monday.");

    const blank = await call("POST", `/api/admin/messages/${neha.id}/replies`, {
      as: admin,
      body: { message: " " },
    });
    expect(blank.status).toBe(400);
    const missing = await call("POST", "/api/admin/messages/00000000-0000-4000-8000-000000000000/replies", {
      as: admin,
      body: { message: "Hello" },
    });
    expect(missing.status).toBe(404);
  });

  const id = "00000000-0000-4000-8000-000000000000";
  const endpoints: [string, string, unknown][] = [
    ["GET", "/api/admin/messages", undefined],
    ["GET", `/api/admin/messages/${id}`, undefined],
    ["PUT", `/api/admin/messages/${id}/read`, { read: true }],
    ["POST", `/api/admin/messages/${id}/replies`, { message: "Hi" }],
  ];
  it.each(endpoints)("%s %s: 401 signed out, 403 for a customer", async (method, path, body) => {
    expect((await call(method, path, { body })).status).toBe(401);
    const asCustomer = await call(method, path, { as: customer, body });
    expect(asCustomer.status).toBe(403);
    expect(asCustomer.body.error.code).toBe("forbidden");
  });
});
