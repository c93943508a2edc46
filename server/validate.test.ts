import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { validate } from "./validate.ts";

const body = z
  .object({
    note: z.string().optional(),
    lines: z.array(z.object({ slug: z.string(), quantity: z.number().int() }).strict()),
  })
  .strict();

const app = new Hono()
  .post("/", validate("json", body), (c) => c.json({ ok: true }))
  .onError((error, c) => {
    if (!(error instanceof HTTPException)) throw error;
    const { fields } = (error.cause ?? {}) as { fields?: Record<string, string> };
    return c.json({ message: error.message, fields }, error.status);
  });

const post = (json: unknown) =>
  app.request("/", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(json),
  });

describe("validate", () => {
  it("names a nested unknown field by its path", async () => {
    const response = await post({
      lines: [
        { slug: "a", quantity: 1 },
        { slug: "b", quantity: 2, colour: "red" },
      ],
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as { message: string; fields: Record<string, string> };
    expect(answer.fields).toEqual({ "lines.1.colour": "is not accepted here" });
    expect(answer.message).toBe("lines.1.colour: is not accepted here");
  });

  it("names a top-level unknown field by its name", async () => {
    const response = await post({ lines: [], price: 1 });
    const answer = (await response.json()) as { fields: Record<string, string> };
    expect(answer.fields).toEqual({ price: "is not accepted here" });
  });
});
