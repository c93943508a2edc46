import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { analyticsSettingsSchema, salesQuerySchema } from "../common/analytics.ts";
import { cartReminderSettingsSchema, marketingConsentSchema } from "../common/cart-reminders.ts";
import { codSummaryQuerySchema, importRemittanceSchema, recordCashSchema } from "../common/cod.ts";
import {
  codConfirmActionSchema,
  codConfirmSettingsSchema,
  codConfirmTokenSchema,
  staffCancelSchema,
} from "../common/cod-confirm.ts";
import { codPlaceRuleKeySchema, codPlaceRuleSchema, codSettingsSchema } from "../common/cod-rules.ts";
import { funnelSettingsSchema } from "../common/funnel.ts";
import { prepaidIncentiveSchema } from "../common/prepaid-incentive.ts";
import { recordRtoSchema, rtoStatsQuerySchema } from "../common/rto.ts";
import { addressInputSchema } from "../common/schemas/address.ts";
import {
  adminProductListQuerySchema,
  createProductSchema,
  updateProductSchema,
  uploadProductImageSchema,
} from "../common/schemas/admin-products.ts";
import { auditListQuerySchema } from "../common/schemas/audit.ts";
import {
  addCartItemSchema,
  applyDiscountSchema,
  mergeCartSchema,
  quoteCartSchema,
  setQuantitySchema,
} from "../common/schemas/cart.ts";
import { productQuerySchema } from "../common/schemas/catalogue.ts";
import { createComboSchema, updateComboSchema } from "../common/schemas/combos.ts";
import {
  adminMessageQuerySchema,
  contactMessageSchema,
  messageReadSchema,
  replyToMessageSchema,
} from "../common/schemas/contact.ts";
import { createPostSchema, previewSchema, updateContentSchema } from "../common/schemas/content-pages.ts";
import {
  deliveryCheckQuerySchema,
  deliveryRuleInputSchema,
  deliveryRuleListQuerySchema,
} from "../common/schemas/delivery.ts";
import {
  createDiscountCodeSchema,
  discountCodeListQuerySchema,
  updateDiscountCodeSchema,
} from "../common/schemas/discount-codes.ts";
import { updateHeroSlidesSchema } from "../common/schemas/hero-slides.ts";
import { adminJobQuerySchema } from "../common/schemas/jobs.ts";
import { issueMissedInvoicesSchema } from "../common/schemas/missed-invoices.ts";
import { editOrderAddressSchema, editOrderItemsSchema } from "../common/schemas/order-edit.ts";
import {
  adminOrderQuerySchema,
  adminStatusChangeSchema,
  cancelOrderSchema,
  claimGuestOrderSchema,
  findOrderSchema,
  guestCheckoutSchema,
  guestOrderSchema,
  guestOrderTokenSchema,
  orderListQuerySchema,
  placeOrderSchema,
  returnRequestSchema,
  shipOrderSchema,
  stockUpdateSchema,
  trackingSchema,
  verifyPaymentSchema,
} from "../common/schemas/orders.ts";
import {
  adminQuestionQuerySchema,
  answerQuestionSchema,
  askQuestionSchema,
  productQuestionsQuerySchema,
  questionVisibilitySchema,
} from "../common/schemas/questions.ts";
import {
  adminReviewQuerySchema,
  myReviewQuerySchema,
  productReviewsQuerySchema,
  rejectReviewSchema,
  replyToReviewSchema,
  reviewFieldsSchema,
  writeReviewSchema,
} from "../common/schemas/reviews.ts";
import { guestDeliverySmsSchema, updateShopSettingsSchema } from "../common/schemas/settings.ts";
import {
  bookSchema,
  bulkSchema,
  couriersQuery,
  labelsQuery,
  ownerNdrSchema,
  parcelSizeSchema,
  shopperAttemptSchema,
  weightsSchema,
} from "../common/schemas/shipping.ts";
import { updatePromoBannerSchema, updateShopDetailsSchema } from "../common/schemas/shop.ts";
import { setStaffRoleSchema } from "../common/schemas/staff.ts";
import { addGstRateSchema, gstr1QuerySchema, updateProductTaxSchema } from "../common/schemas/tax.ts";
import { whatsAppConsentSchema } from "../common/schemas/whatsapp-consent.ts";
import { signUpViaApp, signUpWithRole, type TestAccount } from "../tests/accounts.ts";
import { createTestApp, TEST_ORIGIN } from "../tests/database.ts";
import { type FakeRazorpay, startFakeRazorpay } from "../tests/fake-razorpay.ts";
import { type FakeShiprocket, startFakeShiprocket } from "../tests/fake-shiprocket.ts";
import { FAKE_MSG91, type FakeSmsProvider, startFakeSmsProvider } from "../tests/fake-sms-provider.ts";
import { placeOrderRequest, putInCart, saveAddress } from "../tests/orders.ts";

/**
 * Property-based fuzzing of every endpoint of the API: requests generated from each endpoint's own zod
 * schemas, and beyond them (wrong types, huge and control-character strings, deep JSON, unknown fields,
 * oversized bodies, bad path parameters and query strings, missing headers), signed out, as a customer and
 * as an admin. No answer may be a 5xx, and every error answer must be JSON in the error shape.
 * FUZZ_SEED=<n> replays a run; FUZZ_RUNS=<n> sets the number of requests.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_500);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const BATCH = 100;
const CONCURRENCY = 4;

type Schemas = {
  body?: z.ZodType;
  query?: z.ZodType;
  headers?: () => fc.Arbitrary<Record<string, string>>;
  /** Server-sent events: a good answer never ends, so only its status is read and the stream let go. */
  stream?: true;
};
type Endpoint = Schemas & { method: string; path: string };

const idempotencyKey = () =>
  fc.oneof(
    { weight: 4, arbitrary: fc.uuid().map((key) => ({ "Idempotency-Key": key })) },
    fc.string({ maxLength: 300 }).map((key) => ({ "Idempotency-Key": key.replace(/[^\x20-\x7e]/g, "") })),
    fc.constant({}),
  );

/** The shop's own endpoints and what each reads; the test checks this covers every route the app mounts. */
const SHOP: Record<string, Schemas> = {
  "GET /api/health": {},
  "GET /api/ready": {},
  "GET /api/account/providers": {},
  "GET /api/account/sessions": {},
  "DELETE /api/account/sessions/:id": {},
  "GET /api/admin/summary": {},
  "GET /api/products": { query: productQuerySchema },
  "GET /api/products/:slug": {},
  "GET /api/combos": {},
  "GET /api/catalogue": {},
  "GET /api/combos/:id": {},
  "GET /api/cart": {},
  "GET /api/cart/version": {},
  "GET /api/cart/events": { stream: true },
  "POST /api/cart/items": { body: addCartItemSchema, headers: idempotencyKey },
  "PUT /api/cart/items/:id": { body: setQuantitySchema },
  "DELETE /api/cart/items/:id": {},
  "DELETE /api/cart/items": {},
  "POST /api/cart/merge": { body: mergeCartSchema },
  "POST /api/cart/quote": { body: quoteCartSchema },
  "POST /api/discounts/apply": { body: applyDiscountSchema },
  "DELETE /api/discounts/applied": {},
  "GET /api/config": {},
  "POST /api/contact": { body: contactMessageSchema },
  "GET /api/questions": { query: productQuestionsQuerySchema },
  "GET /api/questions/mine": {},
  "POST /api/questions": { body: askQuestionSchema },
  "GET /api/reviews": { query: productReviewsQuerySchema },
  "GET /api/reviews/mine": { query: myReviewQuerySchema },
  "POST /api/reviews": { body: writeReviewSchema },
  "PUT /api/reviews/:id": { body: reviewFieldsSchema },
  "DELETE /api/reviews/:id": {},
  "GET /api/admin/questions": { query: adminQuestionQuerySchema },
  "PUT /api/admin/questions/:id/answer": { body: answerQuestionSchema },
  "PUT /api/admin/questions/:id/visibility": { body: questionVisibilitySchema },
  "GET /api/admin/reviews": { query: adminReviewQuerySchema },
  "POST /api/admin/reviews/:id/approve": {},
  "POST /api/admin/reviews/:id/reject": { body: rejectReviewSchema },
  "PUT /api/admin/reviews/:id/reply": { body: replyToReviewSchema },
  "DELETE /api/admin/reviews/:id/reply": {},
  "GET /api/admin/messages": { query: adminMessageQuerySchema },
  "GET /api/admin/messages/:id": {},
  "PUT /api/admin/messages/:id/read": { body: messageReadSchema },
  "POST /api/admin/messages/:id/replies": { body: replyToMessageSchema },
  "GET /api/addresses": {},
  "POST /api/addresses": { body: addressInputSchema },
  "DELETE /api/addresses/:id": {},
  "GET /api/checkout": {},
  "POST /api/checkout/guest": { body: guestCheckoutSchema },
  "POST /api/guest-orders": { body: guestOrderSchema, headers: idempotencyKey },
  "POST /api/guest-orders/find": { body: findOrderSchema },
  "GET /api/guest-orders/:number": { query: guestOrderTokenSchema },
  "GET /api/guest-orders/:number/invoice.pdf": { query: guestOrderTokenSchema },
  "GET /api/guest-orders/:number/credit-note.pdf": { query: guestOrderTokenSchema },
  "POST /api/guest-orders/:number/payment": { query: guestOrderTokenSchema },
  "POST /api/guest-orders/:number/payment/verify": {
    query: guestOrderTokenSchema,
    body: verifyPaymentSchema,
  },
  "POST /api/guest-orders/:number/cancel": { query: guestOrderTokenSchema, body: cancelOrderSchema },
  "POST /api/guest-orders/:number/claim": { query: guestOrderTokenSchema, body: claimGuestOrderSchema },
  "GET /api/guest-orders/:number/shipment": { query: guestOrderTokenSchema },
  "POST /api/guest-orders/:number/delivery-attempt": {
    query: guestOrderTokenSchema,
    body: shopperAttemptSchema,
  },
  "GET /api/orders": { query: orderListQuerySchema },
  "POST /api/orders": { body: placeOrderSchema, headers: idempotencyKey },
  "GET /api/orders/:number": {},
  "GET /api/orders/:number/invoice.pdf": {},
  "GET /api/orders/:number/credit-note.pdf": {},
  "POST /api/orders/:number/cancel": { body: cancelOrderSchema },
  "POST /api/orders/:number/return": { body: returnRequestSchema },
  "POST /api/orders/:number/payment": {},
  "POST /api/orders/:number/payment/verify": { body: verifyPaymentSchema },
  "GET /api/orders/:number/shipment": {},
  "POST /api/orders/:number/delivery-attempt": { body: shopperAttemptSchema },
  "POST /api/shipping/tracking-updates": {
    body: z.object({ awb: z.string(), current_status: z.string() }),
    headers: () =>
      fc.oneof(
        fc.constant({}),
        fc.string({ minLength: 1, maxLength: 40 }).map((key) => ({ "x-api-key": key })),
        fc.constant({ "x-api-key": SHIPROCKET_WEBHOOK_TOKEN }),
      ),
  },
  "GET /api/admin/cod": { query: codSummaryQuerySchema },
  "POST /api/admin/cod/orders/:number/cash": { body: recordCashSchema },
  "POST /api/admin/cod/remittances": { body: importRemittanceSchema },
  "GET /api/admin/cod-confirm": {},
  "POST /api/admin/cod-confirm/:number/confirm": { body: codConfirmActionSchema },
  "POST /api/admin/cod-confirm/:number/cancel": { body: staffCancelSchema },
  "PUT /api/admin/cod-confirm/settings": { body: codConfirmSettingsSchema },
  "GET /api/cod-confirm/:number": { query: codConfirmTokenSchema },
  "POST /api/cod-confirm/:number/confirm": { query: codConfirmTokenSchema, body: codConfirmActionSchema },
  "POST /api/cod-confirm/:number/cancel": { query: codConfirmTokenSchema, body: codConfirmActionSchema },
  "POST /api/cod-confirm/:number/pay-online": { query: codConfirmTokenSchema, body: codConfirmActionSchema },
  "POST /api/cod-confirm/:number/pay-online/verify": {
    query: codConfirmTokenSchema,
    body: verifyPaymentSchema,
  },
  "GET /api/messaging/whatsapp": {},
  "POST /api/messaging/whatsapp": {},
  "GET /api/admin/cod-rules": {},
  "PUT /api/admin/cod-rules/settings": { body: codSettingsSchema },
  "PUT /api/admin/cod-rules/places": { body: codPlaceRuleSchema },
  "DELETE /api/admin/cod-rules/places": { query: codPlaceRuleKeySchema },
  "PUT /api/admin/cod-rules/prepaid-incentive": { body: prepaidIncentiveSchema },
  "GET /api/admin/rto/stats": { query: rtoStatsQuerySchema },
  "GET /api/admin/rto/orders/:number": {},
  "POST /api/admin/rto/orders/:number": { body: recordRtoSchema },
  "POST /api/admin/rto/orders/:number/received": {},
  "GET /api/admin/shipping": {},
  "GET /api/admin/shipping/ready": {},
  "GET /api/admin/shipping/parcel-sizes/:kind/:id": {},
  "PUT /api/admin/shipping/parcel-sizes/:kind/:id": { body: parcelSizeSchema },
  "GET /api/admin/shipping/orders/:number": {},
  "GET /api/admin/shipping/weights": {},
  "PUT /api/admin/shipping/weights": { body: weightsSchema },
  "GET /api/admin/shipping/orders/:number/couriers": { query: couriersQuery },
  "POST /api/admin/shipping/orders/:number/book": { body: bookSchema },
  "GET /api/admin/shipping/orders/:number/label.pdf": {},
  "POST /api/admin/shipping/bulk": { body: bulkSchema },
  "GET /api/admin/shipping/labels.pdf": { query: labelsQuery },
  "GET /api/admin/shipping/undelivered": {},
  "POST /api/admin/shipping/orders/:number/ndr": { body: ownerNdrSchema },
  "POST /api/admin/shipping/orders/:number/received-back": {},
  "POST /api/payments/razorpay/webhook": {
    body: z.object({ event: z.enum(["payment.captured", "order.paid", "refund.created"]) }),
    headers: () =>
      fc.oneof(
        fc.constant({}),
        fc
          .string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 })
          .map((signature) => ({ "X-Razorpay-Signature": signature })),
      ),
  },
  "GET /api/admin/orders": { query: adminOrderQuerySchema },
  "GET /api/admin/orders/export.csv": { query: adminOrderQuerySchema },
  "GET /api/admin/orders/:number": {},
  "GET /api/admin/orders/:number/invoice.pdf": {},
  "GET /api/admin/orders/:number/credit-note.pdf": {},
  "POST /api/admin/orders/:number/status": { body: adminStatusChangeSchema },
  "POST /api/admin/orders/:number/ship": { body: shipOrderSchema },
  "PUT /api/admin/orders/:number/tracking": { body: trackingSchema },
  "PUT /api/admin/orders/:number/address": { body: editOrderAddressSchema },
  "PUT /api/admin/orders/:number/items": { body: editOrderItemsSchema },
  "GET /api/admin/missed-invoices": {},
  "GET /api/admin/missed-invoices/seller": {},
  "POST /api/admin/missed-invoices/issue": { body: issueMissedInvoicesSchema },
  "GET /api/admin/discount-codes": { query: discountCodeListQuerySchema },
  "POST /api/admin/discount-codes": { body: createDiscountCodeSchema },
  "GET /api/admin/discount-codes/:code": {},
  "PATCH /api/admin/discount-codes/:code": { body: updateDiscountCodeSchema },
  "GET /api/admin/audit": { query: auditListQuerySchema },
  "GET /api/admin/tax": {},
  "GET /api/admin/tax/gstr1.csv": { query: gstr1QuerySchema },
  "PUT /api/admin/tax/products/:slug": { body: updateProductTaxSchema },
  "POST /api/admin/tax/rates": { body: addGstRateSchema },
  "DELETE /api/admin/tax/rates/:rate": {},
  "GET /api/admin/shop/details": {},
  "PUT /api/admin/shop/details": { body: updateShopDetailsSchema },
  "GET /api/admin/shop/banner": {},
  "PUT /api/admin/shop/banner": { body: updatePromoBannerSchema },
  "GET /api/admin/settings": {},
  "PUT /api/admin/settings": { body: updateShopSettingsSchema },
  "GET /api/admin/settings/hero-slides": {},
  "PUT /api/admin/settings/hero-slides": { body: updateHeroSlidesSchema },
  "GET /api/admin/settings/guest-delivery-sms": {},
  "PUT /api/admin/settings/guest-delivery-sms": { body: guestDeliverySmsSchema },
  "GET /api/admin/pages": {},
  "POST /api/admin/pages": { body: createPostSchema },
  "POST /api/admin/pages/preview": { body: previewSchema },
  "GET /api/admin/pages/:id": {},
  "PUT /api/admin/pages/:id": { body: updateContentSchema },
  "DELETE /api/admin/pages/:id": {},
  "GET /api/content/posts": {},
  "GET /api/content/posts/:slug": {},
  "GET /api/content/pages/:slug": {},
  "GET /api/admin/staff": {},
  "PUT /api/admin/staff": { body: setStaffRoleSchema },
  "GET /api/admin/combos": {},
  "POST /api/admin/combos": { body: createComboSchema },
  "GET /api/admin/combos/:id": {},
  "PATCH /api/admin/combos/:id": { body: updateComboSchema },
  "GET /api/admin/products": { query: adminProductListQuerySchema },
  "POST /api/admin/products": { body: createProductSchema },
  "GET /api/admin/products/:slug": {},
  "PUT /api/admin/products/:slug": { body: updateProductSchema },
  "POST /api/admin/product-images": { body: uploadProductImageSchema },
  "GET /images/uploads/:file": {},
  "GET /api/pincodes/:pin": {},
  "GET /api/delivery/check": { query: deliveryCheckQuerySchema },
  "GET /api/admin/delivery-rules": { query: deliveryRuleListQuerySchema },
  "PUT /api/admin/delivery-rules/:prefix": { body: deliveryRuleInputSchema },
  "DELETE /api/admin/delivery-rules/:prefix": {},
  "GET /api/admin/stock": {},
  "PUT /api/admin/stock/:kind/:id": { body: stockUpdateSchema },
  "GET /api/admin/jobs": { query: adminJobQuerySchema },
  "POST /api/admin/jobs/:id/retry": {},
  "GET /api/admin/dashboard": {},
  "GET /api/admin/analytics/work": {},
  "GET /api/admin/analytics/sales": { query: salesQuerySchema },
  "GET /api/admin/analytics/sales/:file": { query: salesQuerySchema },
  "GET /api/admin/analytics/after-order": { query: salesQuerySchema },
  "GET /api/admin/analytics/after-order/:file": { query: salesQuerySchema },
  "PUT /api/admin/analytics/settings": { body: analyticsSettingsSchema },
  "GET /api/admin/analytics/funnel": { query: salesQuerySchema },
  "GET /api/admin/analytics/funnel/settings": {},
  "GET /api/admin/analytics/funnel/:file": { query: salesQuerySchema },
  "PUT /api/admin/analytics/funnel/settings": { body: funnelSettingsSchema },
  "GET /api/admin/cart-reminders/settings": {},
  "PUT /api/admin/cart-reminders/settings": { body: cartReminderSettingsSchema },
  "GET /api/admin/cart-reminders/report": { query: salesQuerySchema },
  "GET /api/admin/cart-reminders/report.csv": { query: salesQuerySchema },
  "GET /cart-back/restore.js": {},
  "GET /cart-back/:id": { query: z.object({ e: z.string(), s: z.string() }) },
  "GET /unsubscribe": { query: z.object({ a: z.string(), m: z.string(), s: z.string() }) },
  "POST /unsubscribe": { query: z.object({ a: z.string(), m: z.string(), s: z.string() }) },
  "GET /api/marketing-consent": {},
  "PUT /api/marketing-consent": { body: marketingConsentSchema },
  "PUT /api/marketing-consent/whatsapp": { body: whatsAppConsentSchema },
  "GET /robots.txt": {},
  "GET /sitemap.xml": {},
  "GET /metrics": {
    headers: () =>
      fc.oneof(
        fc.constant({}),
        fc
          .string({ maxLength: 80 })
          .map((token) => ({ Authorization: `Bearer ${token.replace(/[^\x20-\x7e]/g, "")}` })),
      ),
  },
};

/** Better Auth's endpoints the web app calls, with the fields it sends. */
const text = z.string();
const AUTH: Record<string, Schemas> = {
  "GET /api/auth/get-session": {},
  "GET /api/auth/list-accounts": {},
  "POST /api/auth/sign-up/email": {
    body: z.object({ name: text, email: text, password: text, callbackURL: text.optional() }),
  },
  "POST /api/auth/sign-in/email": {
    body: z.object({
      email: text,
      password: text,
      rememberMe: z.boolean().optional(),
      callbackURL: text.optional(),
    }),
  },
  "POST /api/auth/sign-in/magic-link": {
    body: z.object({ email: text, name: text.optional(), callbackURL: text.optional() }),
  },
  "GET /api/auth/magic-link/verify": { query: z.object({ token: text, callbackURL: text.optional() }) },
  "POST /api/auth/sign-in/social": {
    body: z.object({ provider: z.enum(["google", "facebook", "github", "twitter"]), callbackURL: text }),
  },
  "GET /api/auth/callback/:provider": { query: z.object({ code: text, state: text }) },
  "POST /api/auth/send-verification-email": {
    body: z.object({ email: text, callbackURL: text.optional() }),
  },
  "GET /api/auth/verify-email": { query: z.object({ token: text, callbackURL: text.optional() }) },
  "POST /api/auth/request-password-reset": { body: z.object({ email: text, redirectTo: text.optional() }) },
  "GET /api/auth/reset-password/:token": { query: z.object({ callbackURL: text }) },
  "POST /api/auth/reset-password": { body: z.object({ newPassword: text, token: text }) },
  "POST /api/auth/update-user": { body: z.object({ name: text, image: text.nullable().optional() }) },
  "POST /api/auth/change-password": {
    body: z.object({ currentPassword: text, newPassword: text, revokeOtherSessions: z.boolean().optional() }),
  },
  "POST /api/auth/delete-user": {
    body: z.object({ password: text.optional(), callbackURL: text.optional() }),
  },
  "POST /api/auth/sign-out": { body: z.object({}) },
  "POST /api/auth/phone-number/send-otp": { body: z.object({ phoneNumber: text }) },
  "POST /api/auth/phone-number/verify": {
    body: z.object({ phoneNumber: text, code: text, updatePhoneNumber: z.boolean().optional() }),
  },
};

const ENDPOINTS: Endpoint[] = Object.entries({ ...SHOP, ...AUTH }).map(([key, schemas]) => {
  const [method = "GET", path = ""] = key.split(" ");
  return { method, path, ...schemas };
});

/** A route without its parameters' names: Better Auth's `/callback/:id` is AUTH's `/callback/:provider`. */
const routeShape = (key: string) => key.replace(/:\w+/g, ":");

type AuthApiEndpoint = {
  path?: string;
  options?: { method?: string | string[]; body?: z.ZodType; query?: z.ZodType };
};

/**
 * Every endpoint Better Auth serves under /api/auth, read from the configured instance (plugins included), each
 * with its own body and query schemas. The web app calls a few (AUTH, with values shaped for them); the rest
 * are reachable by anyone all the same, so they are fuzzed too, and a plugin added later is without a change here.
 */
function betterAuthEndpoints(api: Record<string, AuthApiEndpoint>): Endpoint[] {
  return Object.values(api).flatMap((endpoint) => {
    if (!endpoint?.path || !endpoint.options?.method) return [];
    const methods = [endpoint.options.method].flat().filter((method) => method !== "*");
    return methods.map((method) => ({
      method,
      path: `/api/auth${endpoint.path}`,
      body: endpoint.options?.body,
      query: endpoint.options?.query,
    }));
  });
}

// ---- Values: real ones (so requests get past "not found" into the code), and hostile ones.

const CONTROL = fc.constantFrom(
  "\u0000",
  "\u0001",
  "\u0007",
  "\u0008",
  "\u001b",
  "\u007f",
  "\u0085",
  "\ud800",
);
const controlString = fc
  .tuple(fc.string({ maxLength: 20 }), CONTROL, fc.string({ maxLength: 20 }))
  .map(([before, control, after]) => `${before}${control}${after}`);
const hugeString = fc.constantFrom(200, 5_000, 70_000).map((length) => "x".repeat(length));
const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  controlString,
  hugeString,
  fc.constantFrom(
    "",
    " ",
    "\n",
    "null",
    "0",
    "-1",
    "1e999",
    "../../etc/passwd",
    "<script>",
    "' or 1=1 --",
    "%00",
  ),
);

/** Real values the shop knows, filled in once the fixtures exist. */
const known: Record<string, string[]> = {
  slug: ["coconut-oil", "neem-face-wash", "no-such-product"],
  combo: [],
  orderNumber: ["PN-2026-000001", "PN-2026-999999"],
  uuid: [randomUUID()],
  addressId: [],
  sessionId: [],
  reviewId: [],
  questionId: [],
  messageId: [],
  code: ["WELCOME10", "NEEM15", "welcome10 ", "NOPE"],
  email: ["meera@example.in", "nobody@example.in"],
};

const pick = (key: string) => fc.constantFrom(...(known[key]?.length ? known[key] : ["x"]));

/** Good values for fields by name, so a schema-built body is often valid enough to reach the database. */
function fieldValue(name: string): fc.Arbitrary<unknown> | undefined {
  switch (name) {
    case "id":
    case "productSlug":
    case "product":
    case "slug":
      return fc.oneof(pick("slug"), pick("combo"));
    case "kind":
      return fc.constantFrom("product", "combo");
    case "code":
    case "discountCode":
    case "appliedCode":
      return pick("code");
    case "addressId":
      return pick("addressId");
    case "mergeId":
      return fc.uuid();
    case "email":
      return fc.oneof(pick("email"), fc.emailAddress());
    case "phone":
    case "phoneNumber":
      return fc.constantFrom("98765 43210", "+91 9876543210", "12345");
    case "pin":
      return fc.constantFrom("560038", "110001", "000000");
    case "password":
    case "currentPassword":
    case "newPassword":
      return fc.constantFrom("neem-and-tulsi-2026", "short", "x".repeat(200));
    case "callbackURL":
    case "redirectTo":
      return fc.constantFrom(
        "/",
        "/account",
        "https://evil.example/",
        "javascript:alert(1)",
        "//evil.example",
      );
    case "image":
      return fc.constantFrom("/images/a.png", "javascript:alert(1)", "https://evil.example/x.png");
    case "token":
      return fc.oneof(fc.string({ maxLength: 40 }), fc.constant("x".repeat(5000)));
    default:
      return undefined;
  }
}

type Def = Record<string, unknown> & { type: string };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** Any JSON value where a field wants another type: null for a name, an object for a number. */
const wrongType = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.string({ maxLength: 10 }),
  fc.array(fc.integer(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);

/** Values shaped by a zod schema, often valid, often just outside it, sometimes of another type. */
function fromSchema(schema: z.ZodType, name = "", depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedBy(schema, name, depth);
  const leaf = ["string", "number", "boolean", "enum"].includes(defOf(schema).type);
  return leaf ? fc.oneof({ weight: 9, arbitrary: shaped }, { weight: 1, arbitrary: wrongType }) : shaped;
}

function shapedBy(schema: z.ZodType, name: string, depth: number): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  const inner = (child: unknown) => fromSchema(child as z.ZodType, name, depth + 1);
  switch (def.type) {
    case "string": {
      const good = fieldValue(name);
      return good ? fc.oneof({ weight: 3, arbitrary: good }, hostileString) : hostileString;
    }
    case "number":
      return fc.oneof(
        fc.integer({ min: -5, max: 120 }),
        fc.constantFrom(0, 1, 5, 99, 100_000, 2 ** 31, 2 ** 53 - 1, -(2 ** 53), 1.5, 1e308, -0),
      );
    case "boolean":
      return fc.boolean();
    case "enum":
      return fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...Object.values(def.entries as Record<string, string>)) },
        hostileString,
      );
    case "object": {
      const shape = def.shape as Record<string, z.ZodType>;
      const fields = Object.fromEntries(
        Object.entries(shape).map(([key, child]) => [key, fromSchema(child, key, depth + 1)]),
      );
      return fc
        .tuple(
          fc.record(fields),
          fc.subarray(Object.keys(shape)),
          fc.option(
            fc.tuple(fc.constantFrom("price", "role", "total", "__proto__", "userId"), fc.jsonValue()),
          ),
        )
        .map(([record, dropped, extra]) => {
          const value: Record<string, unknown> = { ...record };
          // Usually complete; sometimes missing fields, sometimes one it does not take.
          for (const key of dropped.slice(0, dropped.length > 2 ? 1 : dropped.length)) delete value[key];
          if (extra) value[extra[0]] = extra[1];
          return value;
        });
    }
    case "array":
      return fc.array(inner(def.element), { maxLength: depth > 2 ? 1 : 4 });
    case "optional":
      return fc.option(inner(def.innerType), { nil: undefined, freq: 4 });
    case "nullable":
      return fc.option(inner(def.innerType), { nil: null, freq: 4 });
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return inner(def.innerType);
    case "pipe":
      return inner(def.in);
    case "union":
      return fc.oneof(...(def.options as z.ZodType[]).map((option) => fromSchema(option, name, depth + 1)));
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** JSON nested deeper than any parser should be asked to go, written as text (building it would overflow). */
const deepJson = fc
  .tuple(fc.constantFrom(100, 10_000, 200_000), fc.constantFrom("[", '{"a":'))
  .map(([depth, open]) => `${open.repeat(depth)}1${(open === "[" ? "]" : "}").repeat(depth)}`);

/** A request body as text: built from the schema most of the time, anything else otherwise. */
function bodyText(schema: z.ZodType | undefined): fc.Arbitrary<string | undefined> {
  const fromShape = schema ? fromSchema(schema).map((value) => JSON.stringify(value)) : fc.constant("{}");
  return fc.oneof(
    { weight: 12, arbitrary: fromShape },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 1, arbitrary: deepJson },
    { weight: 1, arbitrary: fc.constant(`{"padding":"${"x".repeat(1_100_000)}"}`) },
  );
}

/** Percent-encodes anything; half a surrogate pair (which a URL cannot carry) becomes U+FFFD first. */
function encode(value: string) {
  return encodeURIComponent(
    value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD"),
  );
}

/** A path parameter: a real value, or anything percent-encoded, or raw tricks. */
function pathValue(param: string): fc.Arbitrary<string> {
  const real: Record<string, fc.Arbitrary<string>> = {
    slug: pick("slug"),
    number: pick("orderNumber"),
    kind: fc.constantFrom("product", "combo"),
    provider: fc.constantFrom("google", "github", "nope"),
    token: fc.string({ maxLength: 20 }).map(encode),
    pin: fc.constantFrom("600020", "560038", "600999", "12345"),
    prefix: fc.constantFrom("600", "7440", "194101", "0600", "6000201"),
  };
  const byRoute = fc.oneof(
    pick("uuid"),
    pick("addressId"),
    pick("sessionId"),
    pick("reviewId"),
    pick("questionId"),
    pick("messageId"),
    pick("slug"),
    pick("combo"),
  );
  return fc.oneof(
    { weight: 4, arbitrary: real[param] ?? byRoute },
    { weight: 2, arbitrary: hostileString.map((value) => encode(value.slice(0, 3000))) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("%00", "a%00b", "%", "%E0%A4%A", "..%2F..%2Fadmin", "%2e%2e", "x%0Ay"),
    },
  );
}

/** A query string: from the schema, with junk, repeated keys and unknown keys mixed in. */
function queryText(schema: z.ZodType | undefined): fc.Arbitrary<string> {
  const fromShape = schema
    ? fromSchema(schema).map((value) => {
        const search = new URLSearchParams();
        for (const [key, field] of Object.entries((value ?? {}) as Record<string, unknown>)) {
          const values = Array.isArray(field) ? field : [field];
          for (const one of values) {
            if (one !== undefined)
              search.append(key, typeof one === "object" ? JSON.stringify(one) : String(one));
          }
        }
        return search.toString();
      })
    : fc.constant("");
  return fc.oneof(
    { weight: 6, arbitrary: fromShape },
    fc.constantFrom(
      "from=9999-99-99",
      "page=1e400",
      "page=-1",
      "page=0x10",
      "q=%00",
      "%",
      "a=%E0%A4%A",
      "page=1&page=2",
    ),
    fc.string({ maxLength: 40 }).map(encode),
  );
}

/** Mostly what the web app sends; sometimes no Origin, a foreign one, or a form's content type. */
const shopHeaders = fc.oneof(
  { weight: 10, arbitrary: fc.constant({ Origin: TEST_ORIGIN, "Content-Type": "application/json" }) },
  fc.constant({ "Content-Type": "application/json" }),
  fc.constant({ Origin: "https://evil.shop.example", "Content-Type": "application/json" }),
  fc.constant({ Origin: TEST_ORIGIN, "Content-Type": "text/plain" }),
  fc.constant({ Origin: TEST_ORIGIN }),
);

type Generated = {
  endpoint: Endpoint;
  as: "guest" | "customer" | "admin";
  path: string;
  body: string | undefined;
  headers: Record<string, string>;
};

function requestFor(endpoint: Endpoint): fc.Arbitrary<Generated> {
  const params = [...endpoint.path.matchAll(/:(\w+)/g)].map((match) => match[1] ?? "");
  const isRead = endpoint.method === "GET";
  return fc
    .record({
      as: fc.constantFrom("guest" as const, "customer" as const, "admin" as const),
      params: fc.tuple(...params.map(pathValue)),
      query: isRead || endpoint.query ? queryText(endpoint.query) : fc.constant(""),
      body: isRead ? fc.constant(undefined) : bodyText(endpoint.body),
      headers: isRead ? fc.constant({}) : shopHeaders,
      extra: endpoint.headers ? endpoint.headers() : fc.constant({}),
    })
    .map(({ as, params: values, query, body, headers, extra }) => {
      let index = 0;
      const path = endpoint.path.replace(/:(\w+)/g, () => values[index++] ?? "");
      return {
        endpoint,
        as,
        path: query ? `${path}?${query}` : path,
        body,
        headers: { ...headers, ...extra },
      };
    });
}

// ---- The run

let shop: Awaited<ReturnType<typeof createTestApp>>;
let razorpay: FakeRazorpay;
let shiprocket: FakeShiprocket;
/** The fake's token is random; the fuzzer sends this one, which the shop is configured with. */
const SHIPROCKET_WEBHOOK_TOKEN = "fuzz-webhook-token-0123456789";
let sms: FakeSmsProvider;
const accounts: Record<"customer" | "admin" | "authCustomer", TestAccount | undefined> = {
  customer: undefined,
  admin: undefined,
  authCustomer: undefined,
};

beforeAll(async () => {
  razorpay = await startFakeRazorpay();
  shiprocket = await startFakeShiprocket();
  sms = await startFakeSmsProvider();
  shop = await createTestApp({
    ...razorpay.env,
    ...shiprocket.env,
    SHIPROCKET_WEBHOOK_TOKEN,
    MSG91_AUTH_KEY: FAKE_MSG91.authKey,
    MSG91_TEMPLATE_ID: FAKE_MSG91.templateId,
    MSG91_API_BASE: sms.base,
    // WhatsApp's webhook verified (a request without Meta's signature is refused), sending left off.
    WHATSAPP_APP_SECRET: "fuzz-whatsapp-app-secret",
    WHATSAPP_VERIFY_TOKEN: "fuzz-whatsapp-verify-token",
  });
  const customer = await signUpViaApp(shop.app, "meera@example.in");
  const admin = await signUpWithRole(shop, "staff@example.in", "owner");
  // Better Auth's own endpoints sign out, delete accounts and change passwords: they get an account of their own.
  const authCustomer = await signUpViaApp(shop.app, "anita@example.in");
  Object.assign(accounts, { customer, admin, authCustomer });

  await putInCart(shop.db, customer.userId, [{ itemId: "coconut-oil" }]);
  const addressId = await saveAddress(shop.app, customer.cookie);
  const placed = await placeOrderRequest(shop.app, customer.cookie, { addressId, paymentMethod: "cod" });
  const { order } = (await placed.json()) as { order: { number: string } };
  known.orderNumber?.push(order.number);
  known.addressId?.push(addressId);
  const combos = await shop.deps.db.query.combos.findMany({ columns: { id: true } });
  known.combo = combos.map((combo) => combo.id);
  const sessions = await shop.deps.db.query.sessions.findMany({ columns: { id: true, userId: true } });
  // Never the customer's or admin's own sessions: ending those would sign the rest of the run out.
  known.sessionId = sessions.filter((row) => row.userId === authCustomer.userId).map((row) => row.id);

  const listed = new Set(ENDPOINTS.map((endpoint) => routeShape(`${endpoint.method} ${endpoint.path}`)));
  for (const endpoint of betterAuthEndpoints(shop.deps.auth.api as never)) {
    if (!listed.has(routeShape(`${endpoint.method} ${endpoint.path}`))) ENDPOINTS.push(endpoint);
  }
}, 60_000);

afterAll(async () => {
  await shop?.close();
  await razorpay?.stop();
  await shiprocket?.stop();
  await sms?.close();
});

function isErrorShape(body: unknown, auth: boolean): boolean {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (error && typeof error.code === "string" && typeof error.message === "string") return true;
  // Better Auth answers its own errors as { code?, message }, which its browser client reads.
  return auth && typeof (body as { message?: unknown } | null)?.message === "string";
}

describe("fuzzing every endpoint of the API", () => {
  it("covers every route the app mounts", () => {
    const mounted = new Set(
      shop.app.routes
        .filter((route) => route.method !== "ALL" && !route.path.endsWith("*"))
        .map((route) => `${route.method} ${route.path}`),
    );
    const fuzzed = new Set(Object.keys(SHOP));
    expect([...mounted].filter((route) => !fuzzed.has(route))).toEqual([]);
    expect([...fuzzed].filter((route) => !mounted.has(route))).toEqual([]);
  });

  it("covers every endpoint Better Auth serves, and lists none it does not", () => {
    const served = betterAuthEndpoints(shop.deps.auth.api as never).map((endpoint) =>
      routeShape(`${endpoint.method} ${endpoint.path}`),
    );
    // Sign-in, sessions, the phone-number and magic-link plugins, the providers' callbacks: dozens.
    expect(served.length).toBeGreaterThan(30);
    const fuzzed = new Set(ENDPOINTS.map((endpoint) => routeShape(`${endpoint.method} ${endpoint.path}`)));
    expect(served.filter((route) => !fuzzed.has(route))).toEqual([]);
    const stale = Object.keys(AUTH).filter((route) => !served.includes(routeShape(route)));
    expect(stale).toEqual([]);
  });

  it(`answers ${RUNS} generated requests without a 5xx, every error in the error shape`, async () => {
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    const started = Date.now();
    const send = async (request: Generated) => {
      sent++;
      const auth = request.endpoint.path.startsWith("/api/auth/");
      const account =
        request.as === "guest" ? undefined : auth ? accounts.authCustomer : accounts[request.as];
      const response = await shop.app.request(request.path, {
        method: request.endpoint.method,
        headers: { ...request.headers, ...(account ? { Cookie: account.cookie } : {}) },
        body: request.body,
      });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (request.endpoint.stream && response.ok) {
        await response.body?.cancel();
        return;
      }
      const text = await response.text();
      const where = `${request.endpoint.method} ${request.path.slice(0, 160)} as ${request.as}`;
      if (response.status >= 500) {
        failures.push(
          `${response.status} ${where} body=${String(request.body).slice(0, 160)} -> ${text.slice(0, 200)}`,
        );
      } else if (response.status >= 400) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        if (!isErrorShape(parsed, auth))
          failures.push(`shape ${response.status} ${where} -> ${text.slice(0, 200)}`);
      }
    };
    // Generated in batches (a batch of bodies up to 1 MB each is all that is held at once), and sent a few at
    // a time, as browsers do: concurrency is part of what must not break.
    const arbitrary = fc.constantFrom(...ENDPOINTS).chain(requestFor);
    for (let batch = 0; sent < RUNS; batch++) {
      const requests = fc.sample(arbitrary, { numRuns: Math.min(BATCH, RUNS - sent), seed: SEED + batch });
      for (let i = 0; i < requests.length; i += CONCURRENCY) {
        await Promise.all(requests.slice(i, i + CONCURRENCY).map(send));
      }
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}:${n}`);
    console.log(
      `[fuzz] seed ${SEED}: ${sent} requests in ${seconds} s; ${failures.length} failures; ${summary.join(" ")}`,
    );
    expect(sent).toBeGreaterThanOrEqual(RUNS);
    expect(failures.slice(0, 30)).toEqual([]);
    expect((await shop.app.request("/api/health")).status).toBe(200);
  }, 600_000);
});
