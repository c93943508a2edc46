import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
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
import { adminOnly } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { httpError, notFound } from "../errors.ts";
import { log, serializeError } from "../log.ts";
import { textToHtml } from "../mail-html.ts";
import { withOwnersShopName } from "../settings/settings.data.ts";
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

/**
 * A refused message, in the API's one error shape: the form shows `error.message`, the first problem found,
 * and `error.fields` names each field's.
 */
function validationFailure(error: ZodError) {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) fields[key] ??= `The field "${key}" is not accepted here.`;
    } else {
      fields[issue.path.join(".")] ??= issue.message;
    }
  }
  const [first = "Something went wrong. Please try again."] = Object.values(fields);
  return httpError(400, "invalid_request", first, fields);
}

/** POST /api/contact answers { ok: true }, or a 4xx in the API's one error shape. */
export function contactRoutes(deps: Deps) {
  const { db, env } = deps;
  return new Hono().post(
    "/",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw httpError(413, "payload_too_large", "Your message is too long to send.");
      },
    }),
    async (c) => {
      const raw: unknown = await c.req.json().catch(() => undefined);
      if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
        throw httpError(400, "invalid_request", "The message could not be read. Please try again.");
      }
      // The honeypot field is invisible to people; whoever fills it is a bot, and is told all went well.
      const honeypot = (raw as { company?: unknown }).company;
      if (typeof honeypot === "string" && honeypot.trim() !== "")
        return c.json({ ok: true } satisfies ContactResult);

      const parsed = contactMessageSchema.safeParse(raw);
      if (!parsed.success) throw validationFailure(parsed.error);
      const { company: _empty, ...message } = parsed.data;
      const result = await storeContactMessage(db, { ...message, clientIp: clientAddress(c, env) }, () => ({
        code: "too_many_requests",
        message: `You have sent ${CONTACT_MESSAGES_PER_HOUR} messages in the last hour. Please wait a while before sending another, or call us on ${env.SHOP_PHONE}.`,
      }));
      void forwardContactMessage(deps, result.stored).catch((error) =>
        log.error({ err: serializeError(error) }, "contact message forwarding crashed"),
      );
      return c.json({ ok: true } satisfies ContactResult);
    },
  );
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
    .use(adminOnly(deps))
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
          const shopName = (await withOwnersShopName(db, env)).SHOP_NAME;
          const text = [reply, shopName, `On ${original.createdAt.toUTCString()} you wrote:\n${quoted}`].join(
            "\n\n",
          );
          try {
            await mailer.send({
              to: original.email,
              replyTo: env.SHOP_EMAIL,
              subject: `Re: your message to ${shopName}`,
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
