import { z } from "zod";
import { CONTACT_MESSAGE_MAX, type ContactMessage } from "../contact.ts";

// Messages are whole sentences: the contact form shows the first one as it is (errors[0].message).
export const contactMessageSchema = z
  .object({
    name: z
      .string({ error: "Please enter your name." })
      .trim()
      .min(1, "Please enter your name.")
      .max(100, "Please keep your name under 100 characters."),
    email: z
      .string({ error: "Please enter your e-mail address." })
      .trim()
      .min(1, "Please enter your e-mail address.")
      .max(254, "That e-mail address is too long.")
      .pipe(z.email("Please enter a valid e-mail address.")),
    message: z
      .string({ error: "Please write a message." })
      .trim()
      .min(1, "Please write a message.")
      .max(CONTACT_MESSAGE_MAX, `Please keep your message under ${CONTACT_MESSAGE_MAX} characters.`),
  })
  .strict();

// The schema and the shared type must describe the same body.
contactMessageSchema satisfies z.ZodType<ContactMessage>;
