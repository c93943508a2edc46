import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../../tests/database.ts";

let shop: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(() => shop.close());

const send = async (body: unknown, headers: Record<string, string> = {}) => {
  const response = await shop.app.request("/api/contact", {
    method: "POST",
    headers: { Accept: "application/json", "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
};

const valid = { name: "Asha Menon", email: "asha@example.in", message: "Is the hair oil safe for children?" };

describe("POST /api/contact", () => {
  it("accepts a complete message", async () => {
    expect(await send(valid)).toEqual({ status: 200, body: { ok: true } });
  });

  it("accepts a message of exactly 5000 characters and trims the fields", async () => {
    const result = await send({ name: "  Ravi ", email: " ravi@example.in ", message: "a".repeat(5000) });
    expect(result).toEqual({ status: 200, body: { ok: true } });
  });

  it("refuses an unknown field with a 400 in both error shapes", async () => {
    const { status, body } = await send({ ...valid, price: 1 });
    expect(status).toBe(400);
    expect(body.ok).toBe(false);
    expect(body.errors).toEqual([{ field: "price", message: "price: is not accepted here" }]);
    expect(body.error).toMatchObject({ code: "invalid_request", fields: { price: "is not accepted here" } });
  });

  it("refuses a bad e-mail address with a message a person can act on", async () => {
    const { status, body } = await send({ ...valid, email: "asha-at-example" });
    expect(status).toBe(400);
    expect(body).toMatchObject({
      ok: false,
      errors: [{ field: "email", message: "Please enter a valid e-mail address." }],
    });
    expect(body.error.code).toBe("invalid_request");
  });

  it.each([
    ["name", { ...valid, name: "   " }, "Please enter your name."],
    ["email", { ...valid, email: "" }, "Please enter your e-mail address."],
    ["message", { ...valid, message: "" }, "Please write a message."],
    ["message", { name: valid.name, email: valid.email }, "Please write a message."],
    ["message", { ...valid, message: "a".repeat(5001) }, "Please keep your message under 5000 characters."],
    ["name", { ...valid, name: 42 }, "Please enter your name."],
  ])("refuses a missing or bad %s", async (field, body, message) => {
    const result = await send(body);
    expect(result.status).toBe(400);
    expect(result.body.errors[0]).toEqual({ field, message });
  });

  it("lists every problem, so the form can show the first", async () => {
    const { body } = await send({});
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual(["name", "email", "message"]);
  });

  it("answers malformed JSON and oversized bodies in the same shape", async () => {
    const malformed = await send("{not json");
    expect(malformed.status).toBe(400);
    expect(malformed.body.ok).toBe(false);
    expect(malformed.body.errors[0].message).toEqual(expect.any(String));

    const huge = await send({ ...valid, message: "a".repeat(40_000) });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({
      ok: false,
      errors: [{ message: "That message is too long to send." }],
    });
  });

  it("takes many messages at once", async () => {
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, index) => send({ ...valid, name: `Visitor ${index}` })),
    );
    expect(results.every((result) => result.status === 200 && result.body.ok === true)).toBe(true);
  });
});
