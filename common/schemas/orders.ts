import { z } from "zod";
import { COD_REFUND_METHODS } from "../cod.ts";
import { COURIERS, isKnownTrackingUrl, TRACKING_NUMBER_PATTERN } from "../couriers.ts";
import { normalizeMobile } from "../india.ts";
import { keysetQueryFields } from "../lists.ts";
import { isMobileAccountEmail } from "../mobile-account.ts";
import { ORDER_STATUSES } from "../order-lifecycle.ts";
import { addressInputSchema } from "./address.ts";
import { cartEntriesSchema, discountCodeInputSchema } from "./cart.ts";
import { INT4_MAX } from "./numbers.ts";
import { plainText } from "./text.ts";

/** Idempotency-Key: what a browser's crypto.randomUUID() gives, or any client's own 8-200 safe characters. */
export const idempotencyKeySchema = z
  .string({ error: "Idempotency-Key header is required" })
  .regex(/^[A-Za-z0-9_\-:.]{8,200}$/, "Idempotency-Key must be 8-200 letters, digits or - _ : .");

const paymentMethod = z.enum(["cod", "razorpay"], { error: "Choose how to pay" });
/** "Send order updates on WhatsApp" at checkout: off unless ticked. */
const whatsappUpdates = z.boolean({ error: "must be true or false" }).optional();

/** Only what the shopper chooses: every amount is the server's. */
export const placeOrderSchema = z
  .object({
    addressId: plainText().min(1, "Choose a delivery address").max(100),
    paymentMethod,
    whatsappUpdates,
  })
  .strict();
export type PlaceOrderRequest = z.infer<typeof placeOrderSchema>;

/** An e-mail address as a shopper types it; kept lower-cased, the way the shop compares addresses. */
export const emailSchema = plainText()
  .trim()
  .max(254, "Enter a valid e-mail address")
  .pipe(z.email("Enter a valid e-mail address"))
  .transform((email) => email.toLowerCase());

/**
 * A guest's order: the e-mail for its mails, the delivery address (with the 10-digit mobile), the cart kept
 * in the browser (ids and quantities) and its applied code, and the payment choice. No amounts.
 */
export const guestOrderSchema = z
  .object({
    // The stand-in address of an account made with a mobile number is no one's mailbox: refused here as
    // wherever else an address is typed, so a guest order can never name such an account.
    email: emailSchema.refine((email) => !isMobileAccountEmail(email), "Enter your own e-mail address"),
    address: addressInputSchema,
    items: cartEntriesSchema.min(1, "Your cart is empty. Add something before checking out."),
    discountCode: discountCodeInputSchema.nullable().optional(),
    paymentMethod,
    whatsappUpdates,
  })
  .strict();
export type GuestOrderRequest = z.infer<typeof guestOrderSchema>;

/**
 * The guest checkout page's summary: the browser's cart, priced exactly as the order will be. With the
 * e-mail and mobile typed so far, the applied code is checked against their uses too, so a code they have
 * spent is named on the page rather than only refused by Place order; with the address, cash on delivery is
 * decided for it (docs/decisions/070).
 */
export const guestCheckoutSchema = z
  .object({
    items: cartEntriesSchema,
    discountCode: discountCodeInputSchema.nullable().optional(),
    email: emailSchema.optional(),
    mobile: addressInputSchema.shape.phone.optional(),
    /** The address once the guest uses it; its mobile is the one the code is counted against. */
    address: addressInputSchema.optional(),
    /** The guest's tick (or untick) of "remind me about my cart" (docs/decisions/089); absent: never touched. */
    remindMe: z.boolean().optional(),
    /** The guest's tick of "remind me on WhatsApp" (docs/decisions/096), for the mobile sent with it. */
    remindOnWhatsApp: z.boolean().optional(),
  })
  .strict();

/** The signed link of a guest order (`?token=`): 43 base64url characters of an HMAC. */
export const guestOrderTokenSchema = z
  .object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "is not an order link") })
  .strict();

/**
 * Adding a guest order to an account: with the token of the link mailed to the order's address, or with none
 * when signed in to the account that has that address.
 */
export const claimGuestOrderSchema = z
  .object({
    claim: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, "is not a link we sent")
      .optional(),
  })
  .strict();

/** "Find my order": the number and the e-mail or mobile it was placed with. */
export const findOrderSchema = z
  .object({
    number: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^PN-\d{4}-\d{6,}$/, "Enter the order number as it is in your e-mail, like PN-2026-000123"),
    contact: plainText()
      .trim()
      .min(1, "Enter the e-mail or mobile number you ordered with")
      .max(254, "Enter the e-mail or mobile number you ordered with")
      .transform((value, context) => {
        if (value.includes("@")) {
          const email = emailSchema.safeParse(value);
          if (email.success) return { email: email.data };
        } else {
          const mobile = normalizeMobile(value);
          if (mobile) return { mobile };
        }
        context.addIssue({ code: "custom", message: "Enter the e-mail or 10-digit mobile you ordered with" });
        return z.NEVER;
      }),
  })
  .strict();

const reason = plainText({ multiline: true }).trim().max(500, "must be at most 500 characters");

export const cancelOrderSchema = z.object({ reason: reason.optional() }).strict();

export const returnRequestSchema = z
  .object({ reason: reason.min(10, "Tell us what is wrong in a few words (10 characters or more)") })
  .strict();

/** What Razorpay Checkout hands the page after a payment, passed on for the server to verify. */
export const verifyPaymentSchema = z
  .object({
    razorpayPaymentId: z.string().regex(/^pay_[A-Za-z0-9]+$/, "is not a Razorpay payment id"),
    razorpayOrderId: z.string().regex(/^order_[A-Za-z0-9]+$/, "is not a Razorpay order id"),
    razorpaySignature: z.string().regex(/^[a-f0-9]{64}$/, "is not a payment signature"),
  })
  .strict();

export const orderNumberSchema = z.object({
  number: z.string().regex(/^PN-\d{4}-\d{6,}$/, "is not an order number"),
});

export const orderListQuerySchema = z.object(keysetQueryFields).strict();

/** A day on the calendar (no 30 February, no month 99), within years an order can carry. */
const isoDate = z.string().refine((value) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const year = Number(value.slice(0, 4));
  const day = new Date(`${value}T00:00:00Z`);
  return year >= 2000 && year <= 2999 && !Number.isNaN(day.getTime()) && day.toISOString().startsWith(value);
}, "must be a real date like 2026-03-02");

export const adminOrderQuerySchema = z
  .object({
    status: z.enum(ORDER_STATUSES).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
    q: plainText().trim().max(100).optional(),
    ...keysetQueryFields,
  })
  .strict();
export type AdminOrderQuery = z.infer<typeof adminOrderQuerySchema>;

const text = (max: number) =>
  plainText().trim().min(1, "is required").max(max, `must be at most ${max} characters`);

export const adminStatusChangeSchema = z
  .object({
    status: z.enum(ORDER_STATUSES),
    note: plainText({ multiline: true }).trim().max(500).optional(),
    courier: text(60).optional(),
    trackingNumber: text(60).optional(),
    refundReference: text(100).optional(),
    /** How a cash-on-delivery refund was paid back; required for those (server/orders/order-status.ts). */
    refundMethod: z.enum(COD_REFUND_METHODS).optional(),
  })
  .strict()
  .superRefine((change, context) => {
    if (change.status !== "shipped") return;
    if (!change.courier)
      context.addIssue({ code: "custom", path: ["courier"], message: "is required to ship" });
    if (!change.trackingNumber) {
      context.addIssue({ code: "custom", path: ["trackingNumber"], message: "is required to ship" });
    }
  });
export type AdminStatusChange = z.infer<typeof adminStatusChangeSchema>;

/**
 * Shipping in one step: the courier from the list and its tracking number; for a courier outside the list
 * ("Other") staff may give the page where the parcel is followed, on a known tracking site (common/couriers.ts).
 */
export const shipOrderSchema = z
  .object({
    courier: z.enum(COURIERS, { error: `must be one of ${COURIERS.join(", ")}` }),
    trackingNumber: plainText()
      .trim()
      .regex(TRACKING_NUMBER_PATTERN, "must be 4-40 letters, digits or hyphens"),
    trackingUrl: plainText()
      .trim()
      .max(500, "must be at most 500 characters")
      .refine(
        isKnownTrackingUrl,
        "must be an https:// address on a known courier's or tracking service's site",
      )
      .optional(),
    note: plainText({ multiline: true }).trim().max(500).optional(),
  })
  .strict()
  .superRefine((ship, context) => {
    if (ship.trackingUrl !== undefined && ship.courier !== "Other") {
      context.addIssue({
        code: "custom",
        path: ["trackingUrl"],
        message: "is built from the tracking number for a listed courier; give it only for Other",
      });
    }
  });
export type ShipOrderRequest = z.infer<typeof shipOrderSchema>;

export const trackingSchema = z.object({ courier: text(60), trackingNumber: text(60) }).strict();

export const stockUpdateSchema = z
  .object({
    stock: z.number().int("must be a whole number").min(0, "must be 0 or more").max(100_000),
    /** The figure the admin saw, so an edit never silently undoes orders placed meanwhile. */
    previousStock: z
      .number()
      .int("must be a whole number")
      .min(0, "must be 0 or more")
      .max(INT4_MAX, "is larger than any stock"),
  })
  .strict();
