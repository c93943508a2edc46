import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { ContactResponse } from "../../common/contact.ts";
import { contactMessageSchema } from "../../common/schemas/contact.ts";
import type { Deps } from "../deps.ts";
import { errorBody, handleError, httpError } from "../errors.ts";
import { validate } from "../validate.ts";

/**
 * The contact form's endpoint. It answers in the shape the spec's form reads ({ ok, errors }),
 * and keeps the shop's usual { error: { code, message } } beside it for every other client.
 * Messages are validated but not stored yet: storing them belongs to the contact-inbox issue.
 */
export function contactRoutes(_deps: Deps) {
  return new Hono()
    .post(
      "/",
      bodyLimit({
        maxSize: 32 * 1024,
        onError: () => {
          throw httpError(413, "payload_too_large", "That message is too long to send.");
        },
      }),
      validate("json", contactMessageSchema),
      (c) => c.json({ ok: true } satisfies ContactResponse),
    )
    .onError((error, c) => {
      if (!(error instanceof HTTPException)) return handleError(error, c);
      const { code = "invalid_request", fields } = (error.cause ?? {}) as {
        code?: string;
        fields?: Record<string, string>;
      };
      const message = error.message || "Something went wrong. Please try again.";
      // validate() names each field; its own problems ("is not accepted here") read poorly alone.
      const errors = fields
        ? Object.entries(fields).map(([field, problem]) => ({
            field,
            message: /^[A-Z]/.test(problem) ? problem : `${field}: ${problem}`,
          }))
        : [{ message }];
      const body: ContactResponse = { ok: false, errors };
      return c.json({ ...body, ...errorBody(code, message, fields) }, error.status);
    });
}
