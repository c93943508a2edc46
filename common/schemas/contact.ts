import { z } from "zod";
import { ADMIN_MESSAGE_FILTERS, CONTACT_MESSAGE_MAX_LENGTH, CONTACT_NAME_MAX_LENGTH } from "../contact.ts";
import { keysetQueryFields } from "../lists.ts";
import { boundedText, plainText } from "./text.ts";

export const contactMessageSchema = z
  .object({
    name: boundedText("Your name", 1, CONTACT_NAME_MAX_LENGTH),
    email: plainText({ error: "Your e-mail address is required." })
      .trim()
      .max(254, "Please enter a valid e-mail address.")
      .pipe(z.email("Please enter a valid e-mail address.")),
    message: boundedText("Your message", 1, CONTACT_MESSAGE_MAX_LENGTH),
    /** The honeypot: hidden from people, filled in by bots. */
    company: plainText({ multiline: true }).max(500).optional(),
  })
  .strict();

export type ContactMessageInput = z.infer<typeof contactMessageSchema>;

export const adminMessageQuerySchema = z
  .object({
    filter: z.enum(ADMIN_MESSAGE_FILTERS).default("unread"),
    ...keysetQueryFields,
  })
  .strict();

export const messageReadSchema = z.object({ read: z.boolean() }).strict();

export const replyToMessageSchema = z
  .object({ message: boundedText("The reply", 1, CONTACT_MESSAGE_MAX_LENGTH) })
  .strict();
