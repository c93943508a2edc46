import { z } from "zod";
import { addressInputSchema } from "./address.ts";

/**
 * The shopper's answer to cart reminders and offers on WhatsApp (docs/decisions/096), a consent of its own:
 * given for one mobile (the delivery address's, at checkout), recorded with when and where.
 */
export const whatsAppConsentSchema = z
  .object({
    consented: z.boolean(),
    where: z.enum(["checkout", "account"]),
    mobile: addressInputSchema.shape.phone,
  })
  .strict();
