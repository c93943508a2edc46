import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { z } from "zod";
import { CONTACT_MESSAGES_PER_HOUR, type ContactResult } from "../../common/contact.ts";
import {
  adminMessageQuerySchema,
  contactMessageSchema,
  messageReadSchema,
  replyToMessageSchema,
} from "../../common/schemas/contact.ts";
import { clientAddress } from "../auth/client-address.ts";
import type { SessionUser } from "../auth/session.ts";
import { requireAdmin } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { type ErrorBody, handleError, httpError, notFound } from "../errors.ts";
import { log, serializeError } from "../log.ts";
import { textToHtml } from "../mail-html.ts";
import { validate } from "../validate.ts";
import {
  getMessage,
  listMessages,
  replyToMessage,
  setMessageRead,
  storeContactMessage,
} from "./contact.data.ts";
import { forwardContactMessage } from "./contact-forward.ts";

const MAX_BODY_BYTES = 64 * 1024;

function failure(code: string, messages: { message: string; field?: string }[]): ContactResult {
  const first = messages[0]?.message ?? "Something went wrong. Please try again.";
  return { ok: false, errors: messages, error: { code, message: first } };
}

function validationFailure(error: ZodError): ContactResult {
  return failure(
    "invalid_request",
    error.issues.flatMap((issue) =>
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => ({ field: key, message: `The field "${key}" is not accepted here.` }))
        : [{ field: issue.path.join("."), message: issue.message }],
    ),
  );
}

/**
 * POST /api/contact answers in the shape the spec's contact form reads: { ok: true }, or a 4xx with
 * { ok: false, errors: [{ message }] } (plus the API's usual error object).
 */
export function contactRoutes(deps: Deps) {
  const { db, env } = deps;
  return new Hono()
    .post(
      "/",
      bodyLimit({
        maxSize: MAX_BODY_BYTES,
        onError: (c) =>
          c.json(failure("payload_too_large", [{ message: "Your message is too long to send." }]), 413),
      }),
      async (c) => {
        const raw: unknown = await c.req.json().catch(() => undefined);
        if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
          return c.json(
            failure("invalid_request", [{ message: "The message could not be read. Please try again." }]),
            400,
          );
        }
        // The honeypot field is invisible to people; whoever fills it is a bot, and is told all went well.
        const honeypot = (raw as { company?: unknown }).company;
        if (typeof honeypot === "string" && honeypot.trim() !== "")
          return c.json({ ok: true } satisfies ContactResult);

        const parsed = contactMessageSchema.safeParse(raw);
        if (!parsed.success) return c.json(validationFailure(parsed.error), 400);
        const { company: _empty, ...message } = parsed.data;
        const result = await storeContactMessage(db, { ...message, clientIp: clientAddress(c, env) });
        if ("limited" in result) {
          return c.json(
            failure("too_many_requests", [
              {
                message: `You have sent ${CONTACT_MESSAGES_PER_HOUR} messages in the last hour. Please wait a while before sending another, or call us on ${env.SHOP_PHONE}.`,
              },
            ]),
            429,
          );
        }
        void forwardContactMessage(deps, result.stored).catch((error) =>
          log.error({ err: serializeError(error) }, "contact message forwarding crashed"),
        );
        return c.json({ ok: true } satisfies ContactResult);
      },
    )
    .onError(async (error, c) => {
      // Unexpected failures keep the form's shape too, with the API's usual status and message.
      const response = handleError(error, c);
      const body = (await response.clone().json()) as ErrorBody;
      return c.json(
        failure(body.error.code, [{ message: body.error.message }]),
        response.status as ContentfulStatusCode,
      );
    });
}

const idParam = validate("param", z.object({ id: z.uuid("is not a valid id") }));
const noSuchMessage = () => notFound("There is no such message.");

/**
 * The admin role is checked before anything else (401 or 403), so a non-admin learns nothing, not even
 * which inputs would be valid.
 */
type AdminOnly = { Variables: { admin: SessionUser } };

/** Staff's inbox: read, mark read or unread, reply by e-mail. */
export function adminMessageRoutes(deps: Deps) {
  const { db, env, mailer } = deps;
  return new Hono<AdminOnly>()
    .use(async (c, next) => {
      c.set("admin", await requireAdmin(deps, c));
      await next();
    })
    .get("/", validate("query", adminMessageQuerySchema), async (c) => {
      return c.json(await listMessages(db, c.req.valid("query")));
    })
    .get("/:id", idParam, async (c) => {
      const message = await getMessage(db, c.req.valid("param").id);
      if (!message) throw noSuchMessage();
      return c.json({ message });
    })
    .put("/:id/read", idParam, validate("json", messageReadSchema), async (c) => {
      const message = await setMessageRead(
        db,
        c.req.valid("param").id,
        c.req.valid("json").read,
        c.get("admin"),
      );
      if (!message) throw noSuchMessage();
      return c.json({ message });
    })
    .post("/:id/replies", idParam, validate("json", replyToMessageSchema), async (c) => {
      const admin = c.get("admin");
      const reply = c.req.valid("json").message;
      const message = await replyToMessage(
        db,
        { id: c.req.valid("param").id, body: reply, adminId: admin.id, actor: admin },
        async (original) => {
          const quoted = original.message
            .split("\n")
            .map((line) => `> ${line}`)
            .join("\n");
          const text = [
            reply,
            env.SHOP_NAME,
            `On ${original.createdAt.toUTCString()} you wrote:\n${quoted}`,
          ].join("\n\n");
          try {
            await mailer.send({
              to: original.email,
              replyTo: env.SHOP_EMAIL,
              subject: `Re: your message to ${env.SHOP_NAME}`,
              text,
              html: textToHtml(text),
            });
          } catch (error) {
            log.error({ err: serializeError(error) }, "contact reply e-mail failed");
            throw httpError(502, "mail_failed", "The reply could not be sent. Please try again in a moment.");
          }
        },
      );
      if (!message) throw noSuchMessage();
      return c.json({ message }, 201);
    });
}
