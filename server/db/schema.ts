import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { COD_REFUND_METHODS } from "../../common/cod.ts";
import { FUNNEL_STEPS } from "../../common/funnel.ts";
import { ORDER_ACTORS, ORDER_EVENT_KINDS, ORDER_STATUSES } from "../../common/order-lifecycle.ts";
import { SHIPMENT_STATUSES } from "../../common/shipping.ts";

const timestamps = {
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

export const products = pgTable(
  "products",
  {
    slug: text("slug").primaryKey(),
    name: text("name").notNull().unique(),
    description: text("description").notNull(),
    category: text("category", { enum: ["haircare", "skincare", "body", "nutrition"] }).notNull(),
    subcategory: text("subcategory").notNull(),
    badge: text("badge"),
    pricePaise: integer("price_paise").notNull(),
    originalPricePaise: integer("original_price_paise"),
    rating: numeric("rating", { precision: 2, scale: 1, mode: "number" }).notNull(),
    reviewCount: integer("review_count").notNull().default(0),
    benefits: jsonb("benefits").$type<string[]>().notNull(),
    /** Bundled base names (web/public/images/catalogue) or `uploads/<hash>` keys of productImageFiles. */
    images: jsonb("images").$type<string[]>().notNull(),
    /** Alt text per image, by position; an empty or missing one falls back to the product's name. */
    imageAlts: jsonb("image_alts").$type<string[]>().notNull().default([]),
    menus: jsonb("menus").$type<string[]>().notNull().default([]),
    stock: integer("stock").notNull().default(0),
    active: boolean("active").notNull().default(true),
    /** HSN code for tax invoices (docs/decisions/037); null until the owner sets it. */
    hsnCode: text("hsn_code"),
    /** GST rate in basis points, one of the owner's gst_rates; new products start at the standard 18 %. */
    gstRateBp: integer("gst_rate_bp")
      .notNull()
      .default(1800)
      .references(() => gstRates.rateBp),
    /** Packed weight in grams and box size in whole cm, for courier booking (docs/decisions/052); null until set. */
    weightGrams: integer("weight_grams"),
    lengthCm: integer("length_cm"),
    breadthCm: integer("breadth_cm"),
    heightCm: integer("height_cm"),
    /** Bumped by every editor save: a save sent with an older version was made over someone else's change. */
    version: integer("version").notNull().default(1),
    ...timestamps,
  },
  (table) => [
    check("products_price_positive", sql`${table.pricePaise} > 0`),
    check("products_stock_not_negative", sql`${table.stock} >= 0`),
    check(
      "products_parcel_size_positive",
      sql`coalesce(${table.weightGrams}, 1) > 0 and coalesce(${table.lengthCm}, 1) > 0 and coalesce(${table.breadthCm}, 1) > 0 and coalesce(${table.heightCm}, 1) > 0`,
    ),
    check(
      "products_hsn_code_digits",
      sql`${table.hsnCode} is null or ${table.hsnCode} ~ '^([0-9]{4}|[0-9]{6}|[0-9]{8})$'`,
    ),
  ],
);

/**
 * The GST rates the owner allows on products, in basis points (1800 = 18 %): rates are data, moved by the
 * government (September 2025 made most goods 5 % or 18 %), so the owner keeps the list (docs/decisions/037).
 */
export const gstRates = pgTable(
  "gst_rates",
  {
    rateBp: integer("rate_bp").primaryKey(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("gst_rates_range", sql`${table.rateBp} between 0 and 10000`)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * Uploaded product photos as the shop serves them (400 and 800 px square WebP, and a preview JPEG), keyed by the hash of the
 * upload, so the address of a rendition never changes its bytes and can be cached for good. In PostgreSQL,
 * the one store every instance shares.
 */
export const productImageFiles = pgTable("product_image_files", {
  id: text("id").primaryKey(),
  small: bytea("small").notNull(),
  large: bytea("large").notNull(),
  /** 1200 x 630 JPEG for link previews, as the build makes for the bundled images (/images/og/). */
  og: bytea("og").notNull(),
  uploadedBy: text("uploaded_by").notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** A product's earlier addresses, kept so links to them answer with a permanent redirect. */
export const productSlugRedirects = pgTable(
  "product_slug_redirects",
  {
    oldSlug: text("old_slug").primaryKey(),
    productSlug: text("product_slug")
      .notNull()
      .references(() => products.slug, { onUpdate: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("product_slug_redirects_product_idx").on(table.productSlug)],
);

export const combos = pgTable(
  "combos",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    productSlugs: jsonb("product_slugs").$type<string[]>().notNull(),
    originalPricePaise: integer("original_price_paise").notNull(),
    salePricePaise: integer("sale_price_paise").notNull(),
    badge: text("badge").notNull(),
    benefits: jsonb("benefits").$type<string[]>().notNull(),
    image: text("image").notNull(),
    /** The owner's own picture of the combo (an uploaded photo's key), shown instead of its products'; null: none. */
    picture: text("picture"),
    stock: integer("stock").notNull().default(0),
    active: boolean("active").notNull().default(true),
    /** Packed weight in grams and box size in whole cm, for courier booking (docs/decisions/052); null until set. */
    weightGrams: integer("weight_grams"),
    lengthCm: integer("length_cm"),
    breadthCm: integer("breadth_cm"),
    heightCm: integer("height_cm"),
    ...timestamps,
  },
  (table) => [
    check("combos_sale_below_original", sql`${table.salePricePaise} < ${table.originalPricePaise}`),
    check("combos_stock_not_negative", sql`${table.stock} >= 0`),
    check(
      "combos_parcel_size_positive",
      sql`coalesce(${table.weightGrams}, 1) > 0 and coalesce(${table.lengthCm}, 1) > 0 and coalesce(${table.breadthCm}, 1) > 0 and coalesce(${table.heightCm}, 1) > 0`,
    ),
  ],
);

// ---- Accounts: the tables Better Auth reads and writes (its CLI needs Node 22, so they are written here).
// Property names are Better Auth's field names; column names follow this schema's snake_case.

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  role: text("role", { enum: ["customer", "staff", "owner"] })
    .notNull()
    .default("customer"),
  /**
   * A mobile number proved by a code sent to it (Better Auth's phone-number plugin), in E.164 (+91...).
   * Set only by verifying it, so signing in with it never reaches an account on a number someone typed.
   */
  phoneNumber: text("phone_number").unique(),
  phoneNumberVerified: boolean("phone_number_verified").notNull().default(false),
  ...timestamps,
});

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    ...timestamps,
  },
  (table) => [index("sessions_user_id_idx").on(table.userId)],
);

/**
 * The last `session_changed` stamp of each user, written by the same trigger that announces it (docs/decisions/
 * 069): an instance that starts listening reads the recent ones, so it knows the label every other instance
 * gives a user's session copies without waiting out a cookie lifetime. The trigger's upsert locks the user's row
 * until its transaction ends, so the row ends with the stamp of the last transaction to commit, the one every
 * listener heard last. No foreign key: the stamp of a deleted account is still what ends its copies.
 */
export const sessionRevocations = pgTable(
  "session_revocations",
  {
    userId: text("user_id").primaryKey(),
    /** Microseconds since the epoch, by the database's clock: the payload's number. */
    stamp: bigint("stamp", { mode: "number" }).notNull(),
  },
  (table) => [index("session_revocations_stamp_idx").on(table.stamp)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    ...timestamps,
  },
  (table) => [index("accounts_user_id_idx").on(table.userId)],
);

/** One-time values: password-reset and e-mail-link tokens, e-mail verification. */
export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

/** Rate-limit counters live in the database so limits hold across several app instances. */
export const rateLimits = pgTable("rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/**
 * Every throttle's counts (server/throttles/throttle.ts): e-mails and codes sent to one address or number,
 * guest orders, contact messages, questions and reviews per account, and password attempts against one
 * address (docs/decisions/017), which alone use `locked_until`. The key is a hash of what is counted, so
 * addresses typed by strangers are not kept in the clear. Counted whether or not an address has an account,
 * so a throttle never tells the two apart. (The name is older than the other throttles.)
 */
export const authThrottles = pgTable("auth_throttles", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
  lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }).notNull(),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
});

// ---- Cart and discount codes. The cart of a signed-in shopper lives here; a guest's stays in the browser.

export const discountCodes = pgTable(
  "discount_codes",
  {
    code: text("code").primaryKey(), // stored upper-cased; codes are matched case-insensitively
    /** Percent off (1-90), or 0 for a flat-amount code. */
    percent: integer("percent").notNull(),
    /** A flat amount off in paise, or 0 for a percent code. */
    amountOffPaise: integer("amount_off_paise").notNull().default(0),
    description: text("description").notNull(),
    active: boolean("active").notNull().default(true),
    minAmountPaise: integer("min_amount_paise").notNull().default(0),
    /** The window the code can be used in; open-ended on a null side. */
    startsAt: timestamp("starts_at", { withTimezone: true }),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    /** Orders that may use the code in all; null for no limit. */
    maxUses: integer("max_uses"),
    /** Orders placed with the code so far; raised only by a guarded update when an order is placed. */
    timesUsed: integer("times_used").notNull().default(0),
    /** Uses one customer may make (account, or a guest's e-mail and mobile); 1 as the spec's codes, null for no limit. */
    usesPerCustomer: integer("uses_per_customer").default(1),
    /**
     * The one shopper (a lower-cased e-mail: an account's or a guest's) who may use the code, or null for
     * anyone: a cart reminder's code is that shopper's alone (docs/decisions/089).
     */
    reservedFor: text("reserved_for"),
    ...timestamps,
  },
  (table) => [
    check(
      "discount_codes_kind",
      sql`(${table.percent} between 1 and 90 and ${table.amountOffPaise} = 0) or (${table.percent} = 0 and ${table.amountOffPaise} > 0)`,
    ),
    check("discount_codes_upper_case", sql`${table.code} = upper(${table.code})`),
    check("discount_codes_min_amount", sql`${table.minAmountPaise} >= 0`),
    check(
      "discount_codes_window",
      sql`${table.startsAt} is null or ${table.endsAt} is null or ${table.endsAt} > ${table.startsAt}`,
    ),
    check(
      "discount_codes_uses",
      sql`${table.timesUsed} >= 0 and (${table.maxUses} is null or (${table.maxUses} >= 1 and ${table.timesUsed} <= ${table.maxUses}))`,
    ),
    check(
      "discount_codes_uses_per_customer",
      sql`${table.usesPerCustomer} is null or ${table.usesPerCustomer} >= 1`,
    ),
    index("discount_codes_created_at_code").on(table.createdAt, table.code),
  ],
);

/**
 * One row per use of a code by an account, numbered 1, 2, ... per (account, code): the primary key on the
 * number is what makes "at most N uses" hold under concurrent requests (decision 046).
 */
export const discountUses = pgTable(
  "discount_uses",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    code: text("code")
      .notNull()
      .references(() => discountCodes.code),
    useNumber: integer("use_number").notNull().default(1),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
    /** The order the use was spent on; null while it is only applied to the cart. */
    orderId: text("order_id"),
  },
  (table) => [primaryKey({ columns: [table.userId, table.code, table.useNumber] })],
);

export const carts = pgTable("carts", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** The code applied in the cart, checked again when the order is placed. */
  discountCode: text("discount_code").references(() => discountCodes.code),
  /** Bumped on every change, so other devices can tell that the cart moved on. */
  version: integer("version").notNull().default(0),
  ...timestamps,
});

export const cartItems = pgTable(
  "cart_items",
  {
    userId: text("user_id")
      .notNull()
      .references(() => carts.userId, { onDelete: "cascade" }),
    /** A product slug or a combo id, as the spec's cart item id. */
    itemId: text("item_id").notNull(),
    kind: text("kind", { enum: ["product", "combo"] }).notNull(),
    quantity: integer("quantity").notNull(),
    /** The unit price when the item was added, to tell the shopper when it has changed since. */
    addedPricePaise: integer("added_price_paise").notNull(),
    ...timestamps,
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.itemId] }),
    check("cart_items_quantity_range", sql`${table.quantity} between 1 and 99`),
  ],
);

/**
 * The guest carts an account has taken in, by the id the browser gave each merge: a merge sent again after
 * its answer was lost (a reload, a dropped connection) is recognised and not added a second time.
 */
export const cartMerges = pgTable(
  "cart_merges",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    mergeId: uuid("merge_id").notNull(),
    mergedAt: timestamp("merged_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.mergeId] })],
);

/**
 * The adds to a signed-in cart that named an Idempotency-Key: an add sent again after its answer was lost (a
 * phone dropping off the network, a 503 after the commit) finds its key and adds nothing a second time. The
 * hash is of what was asked, so a key reused for a different add is refused. Kept a day.
 */
export const cartRequests = pgTable(
  "cart_requests",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] })],
);

// ---- Conversation: product questions, product reviews and contact messages.
// Authors are referenced with ON DELETE SET NULL: a deleted account's questions and reviews stay, anonymised
// (docs/decisions/057-conversation-after-account-deletion.md).

export const questions = pgTable(
  "questions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productSlug: text("product_slug")
      .notNull()
      .references(() => products.slug, { onUpdate: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    /** As the customer wrote it; shown as plain text. */
    body: text("body").notNull(),
    answer: text("answer"),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
    answeredBy: text("answered_by").references(() => users.id, { onDelete: "set null" }),
    /** Hidden by staff: never on the product page; the asker still sees it in /questions. */
    hidden: boolean("hidden").notNull().default(false),
    ...timestamps,
  },
  (table) => [
    index("questions_product_idx").on(table.productSlug, table.answeredAt),
    index("questions_user_idx").on(table.userId),
    // Staff's list pages by (created_at, id), newest first, in all questions or one filter tab's share.
    index("questions_created_at_id_idx").on(table.createdAt, table.id),
    index("questions_unanswered_created_at_id_idx")
      .on(table.createdAt, table.id)
      .where(sql`${table.answer} is null and not ${table.hidden}`),
    index("questions_answered_created_at_id_idx")
      .on(table.createdAt, table.id)
      .where(sql`${table.answer} is not null and not ${table.hidden}`),
    index("questions_hidden_created_at_id_idx").on(table.createdAt, table.id).where(sql`${table.hidden}`),
    check("questions_body_length", sql`char_length(${table.body}) between 10 and 1000`),
    check("questions_answered_together", sql`(${table.answer} is null) = (${table.answeredAt} is null)`),
  ],
);

export const reviews = pgTable(
  "reviews",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    productSlug: text("product_slug")
      .notNull()
      .references(() => products.slug, { onUpdate: "cascade" }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    rating: integer("rating").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    /** Every new or edited review waits for staff; only approved ones are public and count in ratings. */
    status: text("status", { enum: ["pending", "approved", "rejected"] })
      .notNull()
      .default("pending"),
    /** Why staff rejected it; the author sees this. */
    rejectionReason: text("rejection_reason"),
    moderatedAt: timestamp("moderated_at", { withTimezone: true }),
    moderatedBy: text("moderated_by").references(() => users.id, { onDelete: "set null" }),
    /** The shop's public reply, shown under the review. */
    reply: text("reply"),
    repliedAt: timestamp("replied_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    // One review per customer and product; anonymised reviews (user_id null) do not collide.
    uniqueIndex("reviews_user_product_unique").on(table.userId, table.productSlug),
    index("reviews_product_status_idx").on(table.productSlug, table.status),
    // Staff's list of one status pages by (created_at, id), newest first.
    index("reviews_status_created_at_id_idx").on(table.status, table.createdAt, table.id),
    check("reviews_rating_range", sql`${table.rating} between 1 and 5`),
    check("reviews_body_length", sql`char_length(${table.body}) between 20 and 2000`),
    check("reviews_title_length", sql`char_length(${table.title}) between 1 and 120`),
    check(
      "reviews_rejection_has_reason",
      sql`(${table.status} = 'rejected') = (${table.rejectionReason} is not null)`,
    ),
  ],
);

export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    message: text("message").notNull(),
    /** The sender's address as the server saw it; kept for the per-address rate limit. */
    clientIp: text("client_ip"),
    readAt: timestamp("read_at", { withTimezone: true }),
    /** Outcome of forwarding to CONTACT_FORWARD_URL / CONTACT_FORWARD_EMAIL, for staff to see. */
    forwardedAt: timestamp("forwarded_at", { withTimezone: true }),
    forwardError: text("forward_error"),
    ...timestamps,
  },
  (table) => [
    index("contact_messages_email_idx").on(sql`lower(${table.email})`, table.createdAt),
    index("contact_messages_ip_idx").on(table.clientIp, table.createdAt),
    // The inbox pages by (created_at, id), newest first, all messages or the unread ones.
    index("contact_messages_created_at_id_idx").on(table.createdAt, table.id),
    index("contact_messages_unread_created_at_id_idx")
      .on(table.createdAt, table.id)
      .where(sql`${table.readAt} is null`),
    check("contact_messages_message_length", sql`char_length(${table.message}) between 1 and 5000`),
  ],
);

export const contactReplies = pgTable(
  "contact_replies",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    messageId: uuid("message_id")
      .notNull()
      .references(() => contactMessages.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    sentBy: text("sent_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("contact_replies_message_idx").on(table.messageId)],
);

// ---- Checkout and orders: the address book, orders with their lines and history, idempotent order requests.

/** A customer's saved delivery addresses, offered again at the next checkout. Deleted with the account. */
export const addresses = pgTable(
  "addresses",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    phone: text("phone").notNull(),
    line1: text("line1").notNull(),
    line2: text("line2").notNull().default(""),
    city: text("city").notNull(),
    /** From India Post's directory when the PIN was looked up; empty for addresses saved before. */
    district: text("district").notNull().default(""),
    state: text("state").notNull(),
    pin: text("pin").notNull(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    ...timestamps,
  },
  (table) => [index("addresses_user_id_idx").on(table.userId)],
);

/** Gives order numbers PN-<year>-000123; gaps after a refused order are harmless. */
export const orderNumbers = pgSequence("order_number_seq", { startWith: 1 });

export const orders = pgTable(
  "orders",
  {
    id: text("id").primaryKey(),
    number: text("number").notNull().unique(),
    /** Null once the account is deleted: the order stays as the shop's sales and delivery record. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: ORDER_STATUSES }).notNull(),
    paymentMethod: text("payment_method", { enum: ["cod", "razorpay"] }).notNull(),
    subtotalPaise: integer("subtotal_paise").notNull(),
    discountCode: text("discount_code"),
    discountPaise: integer("discount_paise").notNull().default(0),
    shippingPaise: integer("shipping_paise").notNull(),
    /** What the prepaid incentive took off the goods (docs/decisions/072); in the total, apportioned as the discount is on the invoice. */
    prepaidDiscountPaise: integer("prepaid_discount_paise").notNull().default(0),
    /** The shipping fee the prepaid incentive waived (shipping_paise is then 0): shown, not in the total. */
    prepaidShippingWaivedPaise: integer("prepaid_shipping_waived_paise").notNull().default(0),
    totalPaise: integer("total_paise").notNull(),
    // The delivery address as it was when ordered: a later edit of the address book never rewrites a delivery.
    shipName: text("ship_name").notNull(),
    shipPhone: text("ship_phone").notNull(),
    shipLine1: text("ship_line1").notNull(),
    shipLine2: text("ship_line2").notNull().default(""),
    shipCity: text("ship_city").notNull(),
    /** The district the PIN look-up filled in (India Post's directory); null on orders placed before it was kept. */
    shipDistrict: text("ship_district"),
    shipState: text("ship_state").notNull(),
    shipPin: text("ship_pin").notNull(),
    estimatedDeliveryFrom: date("estimated_delivery_from", { mode: "string" }).notNull(),
    estimatedDeliveryTo: date("estimated_delivery_to", { mode: "string" }).notNull(),
    hasPerishables: boolean("has_perishables").notNull().default(false),
    razorpayOrderId: text("razorpay_order_id").unique(),
    /** The Razorpay refund id, or the UPI / bank reference of a cash-on-delivery refund. */
    refundReference: text("refund_reference"),
    /**
     * How a refund reached the shopper when no gateway carried it (a cash-on-delivery order): UPI, a bank
     * transfer, cash in hand or store credit. Null for Razorpay refunds (the gateway's id says it all).
     */
    refundMethod: text("refund_method", { enum: COD_REFUND_METHODS }),
    courier: text("courier"),
    trackingNumber: text("tracking_number"),
    /** The tracking page staff give for a courier outside the list ("Other"); listed couriers' pages are built. */
    trackingUrl: text("tracking_url"),
    shippedAt: timestamp("shipped_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /**
     * The e-mail a guest ordered with (lower-cased); null for an order placed signed in. The order's mails go
     * there, and the account that later confirms this address takes the order into its My Orders.
     */
    guestEmail: text("guest_email"),
    /**
     * When a cash-on-delivery order still waiting for the shopper's confirmation is cancelled by the shop
     * (docs/decisions/065). Null for orders never asked: paid online, or placed before confirmations began.
     */
    codConfirmBy: timestamp("cod_confirm_by", { withTimezone: true }),
    /** The shopper ticked "Send order updates on WhatsApp" at checkout. */
    whatsappUpdates: boolean("whatsapp_updates").notNull().default(false),
    ...timestamps,
  },
  (table) => [
    // The unconfirmed cash-on-delivery orders, soonest deadline first: the "to confirm" list and its clock.
    index("orders_cod_confirm_by_idx")
      .on(table.codConfirmBy)
      .where(sql`${table.status} = 'placed' and ${table.codConfirmBy} is not null`),
    // Guest orders by address: found again for "Find my order", claimed by the account that confirms it.
    index("orders_guest_email_idx").on(table.guestEmail).where(sql`${table.guestEmail} is not null`),
    // My Orders pages by (created_at, id) within one account.
    index("orders_user_id_created_at_id_idx").on(table.userId, table.createdAt, table.id),
    // At most one online order waiting for payment per account (docs/decisions/020): the last guard under races.
    uniqueIndex("orders_one_awaiting_payment_per_user")
      .on(table.userId)
      .where(sql`${table.status} = 'awaiting_payment'`),
    // Lists page by (created_at, id), newest first, with or without a status; the trigram search index is
    // hand-written in migration 0009 (drizzle-kit does not create the extension it needs first).
    index("orders_created_at_id_idx").on(table.createdAt, table.id),
    index("orders_status_created_at_id_idx").on(table.status, table.createdAt, table.id),
    index("orders_ship_phone_idx").on(table.shipPhone, table.createdAt, table.id),
    // Partial search by name or city: the matching terms (orderSearchTerms) are looked up here, newest first.
    index("orders_ship_name_created_at_id_idx").on(table.shipName, table.createdAt, table.id),
    index("orders_ship_city_created_at_id_idx").on(table.shipCity, table.createdAt, table.id),
    check(
      "orders_amounts_not_negative",
      sql`${table.subtotalPaise} >= 0 and ${table.discountPaise} >= 0 and ${table.shippingPaise} >= 0 and ${table.prepaidDiscountPaise} >= 0 and ${table.prepaidShippingWaivedPaise} >= 0`,
    ),
    check(
      "orders_total_adds_up",
      sql`${table.totalPaise} = ${table.subtotalPaise} - ${table.discountPaise} - ${table.prepaidDiscountPaise} + ${table.shippingPaise}`,
    ),
  ],
);

/** An order as its row stands. */
export type OrderRow = typeof orders.$inferSelect;

/** What was bought, at the price charged. */
export const orderLines = pgTable(
  "order_lines",
  {
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    itemId: text("item_id").notNull(),
    kind: text("kind", { enum: ["product", "combo"] }).notNull(),
    name: text("name").notNull(),
    image: text("image").notNull(),
    unitPricePaise: integer("unit_price_paise").notNull(),
    quantity: integer("quantity").notNull(),
    lineTotalPaise: integer("line_total_paise").notNull(),
    perishable: boolean("perishable").notNull().default(false),
  },
  (table) => [
    primaryKey({ columns: [table.orderId, table.itemId] }),
    check("order_lines_quantity_positive", sql`${table.quantity} > 0`),
  ],
);

/** Every status change with its time and who made it. */
export const orderEvents = pgTable(
  "order_events",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    fromStatus: text("from_status", { enum: ORDER_STATUSES }),
    toStatus: text("to_status", { enum: ORDER_STATUSES }).notNull(),
    actor: text("actor", { enum: ORDER_ACTORS }).notNull(),
    actorUserId: text("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    /** What changed; "status" for a move between statuses (and the entries written before kinds were kept). */
    kind: text("kind", { enum: ORDER_EVENT_KINDS }).notNull().default("status"),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("order_events_order_id_idx").on(table.orderId, table.createdAt)],
);

/**
 * One row per Idempotency-Key and account: the primary key makes a repeated or concurrent request wait for,
 * then return, the first one's order instead of placing another.
 */
export const orderRequests = pgTable(
  "order_requests",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    orderId: text("order_id").references(() => orders.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] })],
);

/**
 * How many orders are in each status, as +n / -n rows written by a statement trigger on orders (migration
 * 0009): the dashboard sums a handful of rows instead of counting every order ever placed. Rows are only
 * inserted, never updated, so concurrent orders never wait on one counter row; reading folds them together.
 */
/**
 * A guest's Idempotency-Key: guests have no account to scope keys by, so a key is global and binds the whole
 * request (its hash); the same key with another body is refused, never answered with someone else's order.
 */
export const guestOrderRequests = pgTable("guest_order_requests", {
  key: text("key").primaryKey(),
  requestHash: text("request_hash").notNull(),
  orderId: text("order_id").references(() => orders.id, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A discount code's uses per customer, for guests: one row for the e-mail and one for the mobile each
 * guest order with a code spends ("email:asha@example.in", "mobile:9876543210"), numbered per contact as
 * discount_uses are, so neither a new e-mail nor a new browser uses the code again with the same other half.
 */
export const guestDiscountUses = pgTable(
  "guest_discount_uses",
  {
    code: text("code")
      .notNull()
      .references(() => discountCodes.code),
    contact: text("contact").notNull(),
    useNumber: integer("use_number").notNull().default(1),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.code, table.contact, table.useNumber] })],
);

export const orderStatusDeltas = pgTable("order_status_deltas", {
  status: text("status", { enum: ORDER_STATUSES }).notNull(),
  delta: bigint("delta", { mode: "number" }).notNull(),
});

/**
 * Sales per Indian day (orders in a SALE_STATUSES status and their total), as deltas written by the same
 * triggers: the dashboard's 30 days are a sum over a few rows per day, exact for today.
 */
export const orderDayDeltas = pgTable(
  "order_day_deltas",
  {
    day: date("day", { mode: "string" }).notNull(),
    orders: integer("orders").notNull(),
    revenuePaise: bigint("revenue_paise", { mode: "number" }).notNull(),
  },
  (table) => [index("order_day_deltas_day_idx").on(table.day)],
);

/**
 * Every name and city an order was ever shipped to, once each (docs/decisions/047): a part of a name is
 * matched by trigram against these few thousand terms, not against a million orders, and the orders of
 * the matching terms are then read through orders_ship_name_created_at_id_idx and its city twin. Written by
 * triggers on orders (migration order_search_terms); never pruned, since a term without orders finds none.
 */
/**
 * "Sales at a glance" per Indian day (issue 44, docs/decisions/094), as deltas written by triggers in the same
 * statement as the change they sum, like order_day_deltas: sale orders by state, by payment and by discount
 * code (their totals, and a code's discount), the lines of sale orders by item (units and line totals, with
 * the name on the line), and tax invoices and credit notes by the day issued (taxable value and total).
 * Readers sum a period's rows, so a year costs its days, not its orders; reading folds them when many.
 */
export const SALES_DIMENSIONS = [
  "state",
  "payment",
  "code",
  "product",
  "combo",
  "invoice",
  "credit_note",
] as const;
export const salesDayDeltas = pgTable(
  "sales_day_deltas",
  {
    day: date("day", { mode: "string" }).notNull(),
    dimension: text("dimension", { enum: SALES_DIMENSIONS }).notNull(),
    /** The state, payment method, code or item id; empty for documents. */
    key: text("key").notNull(),
    /** An item's name as its lines carry it; empty otherwise. */
    name: text("name").notNull().default(""),
    /** Orders, lines or documents. */
    count: integer("count").notNull(),
    units: integer("units").notNull().default(0),
    /** Sales (order totals), line totals, or a document's taxable value. */
    amountPaise: bigint("amount_paise", { mode: "number" }).notNull(),
    /** A code's discount, or a document's total. */
    otherPaise: bigint("other_paise", { mode: "number" }).notNull().default(0),
  },
  (table) => [index("sales_day_deltas_day_idx").on(table.day, table.dimension)],
);

/**
 * sales_day_deltas summed per month, as deltas written by a statement trigger on sales_day_deltas in the
 * statement that writes it (a fold of days writes its sums and their opposite, which cancel): a period reads
 * its whole months here and only the days at its edges from sales_day_deltas (docs/decisions/097).
 */
export const salesMonthDeltas = pgTable(
  "sales_month_deltas",
  {
    /** The month's first day. */
    month: date("month", { mode: "string" }).notNull(),
    dimension: text("dimension", { enum: SALES_DIMENSIONS }).notNull(),
    key: text("key").notNull(),
    name: text("name").notNull().default(""),
    count: integer("count").notNull(),
    units: integer("units").notNull().default(0),
    amountPaise: bigint("amount_paise", { mode: "number" }).notNull(),
    otherPaise: bigint("other_paise", { mode: "number" }).notNull().default(0),
  },
  (table) => [index("sales_month_deltas_month_idx").on(table.month, table.dimension)],
);

/**
 * Orders that should carry a tax invoice and have none (INVOICE_DUE_STATUSES in
 * common/schemas/missed-invoices.ts, no invoice issued): the invoices not issued, kept by triggers on orders
 * and tax_documents in the statement that changes them (docs/decisions/097), so the admin home lists and
 * counts what waits, not every order the shop has invoiced.
 */
export const ordersAwaitingInvoice = pgTable("orders_awaiting_invoice", {
  orderId: text("order_id")
    .primaryKey()
    .references(() => orders.id, { onDelete: "cascade" }),
});

/**
 * Delivered cash-on-delivery orders whose cash is not recorded yet (no row in cod_remittances), with what the
 * work counts read of them: kept by triggers on orders and cod_remittances in the statement that changes them
 * (docs/decisions/097), so "cash expected" costs the cash still out, not every COD order ever delivered.
 */
export const codCashAwaited = pgTable("cod_cash_awaited", {
  orderId: text("order_id")
    .primaryKey()
    .references(() => orders.id, { onDelete: "cascade" }),
  deliveredAt: timestamp("delivered_at", { withTimezone: true }).notNull(),
  totalPaise: integer("total_paise").notNull(),
});

/**
 * Each sale order (order_is_sale) with its buyer's sale before it, for "new against returning customers"
 * (server/analytics/sales.ts): the buyer as the dashboard counts one (the account, else the guest's e-mail,
 * else the mobile), the order's Indian day, the day of the buyer's previous sale (null for a first sale) and
 * its rank among the buyer's sales. A period's customers are its orders whose previous sale is before the
 * period, so a period reads its own rows from one index instead of probing every buyer's history. Kept by a
 * statement trigger on orders, which works out each touched buyer's sales again from the orders
 * (docs/decisions/097); the migration backfills it.
 */
export const buyerSales = pgTable(
  "buyer_sales",
  {
    orderId: text("order_id").primaryKey(),
    buyer: text("buyer").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    previousDay: date("previous_day", { mode: "string" }),
    rank: integer("rank").notNull(),
  },
  (table) => [index("buyer_sales_buyer_idx").on(table.buyer)],
);

/**
 * buyer_sales counted per Indian day, as deltas written by a statement trigger on buyer_sales in the statement
 * that changes it (only inserted, like sales_day_deltas, so concurrent orders never wait on a counter row):
 * on each day, the sales with no sale before them (firsts), those with one (later), the buyers' second sales
 * (seconds), and the sales whose buyer's previous sale was that day (nexts; second_nexts for second sales). A
 * period's customers are then sums over days (server/analytics/sales.ts, docs/decisions/097): those who bought
 * before the period and in it are the sales whose previous sale is before it and who are on or after its first
 * day, less those after its last day, so a period ending today reads the days' sums, not its sales.
 */
export const buyerSaleDayDeltas = pgTable(
  "buyer_sale_day_deltas",
  {
    day: date("day", { mode: "string" }).notNull(),
    firsts: integer("firsts").notNull().default(0),
    later: integer("later").notNull().default(0),
    seconds: integer("seconds").notNull().default(0),
    nexts: integer("nexts").notNull().default(0),
    secondNexts: integer("second_nexts").notNull().default(0),
  },
  (table) => [index("buyer_sale_day_deltas_day_idx").on(table.day)],
);

/**
 * "After the order" per Indian day (issue 44), as deltas written by triggers in the same statement as the change
 * they sum, like sales_day_deltas: parcels shipped by the day shipped, by state and by PIN prefix (count; those
 * returned to origin in other_count, their cost both ways in amount_paise); COD orders asked to confirm by the
 * day placed and how the first move out of "placed" ended (key); COD orders delivered by the day delivered
 * (count, their totals in amount_paise; those with cash recorded collected in other_count, its sum in
 * other_paise). Readers sum a period's rows, so a year costs its days, not its orders; reading folds them when
 * many.
 */
export const AFTER_ORDER_DIMENSIONS = ["state", "pin", "confirm", "cash"] as const;
export const afterOrderDayDeltas = pgTable(
  "after_order_day_deltas",
  {
    day: date("day", { mode: "string" }).notNull(),
    dimension: text("dimension", { enum: AFTER_ORDER_DIMENSIONS }).notNull(),
    /** The state, the PIN's first three digits, or the confirmation's outcome; empty for cash. */
    key: text("key").notNull(),
    /** Parcels shipped, orders asked to confirm, or COD orders delivered. */
    count: integer("count").notNull(),
    /** Parcels returned to origin, or delivered COD orders with their cash recorded collected. */
    otherCount: integer("other_count").notNull().default(0),
    /** What the returns cost both ways, or the delivered COD orders' totals. */
    amountPaise: bigint("amount_paise", { mode: "number" }).notNull().default(0),
    /** The cash recorded collected. */
    otherPaise: bigint("other_paise", { mode: "number" }).notNull().default(0),
  },
  (table) => [index("after_order_day_deltas_day_idx").on(table.day, table.dimension)],
);

export const orderSearchTerms = pgTable(
  "order_search_terms",
  {
    field: text("field", { enum: ["name", "city"] }).notNull(),
    term: text("term").notNull(),
  },
  (table) => [primaryKey({ columns: [table.field, table.term] })],
);

export const JOB_STATUSES = ["queued", "running", "done", "failed"] as const;

/**
 * Work done off the request path (mails, the lapse of unpaid orders), written in the transaction of the
 * change that causes it, so a rolled-back change leaves no job and a committed one always has its job
 * (docs/decisions/029). Workers claim due rows with FOR UPDATE SKIP LOCKED and hold them by a lease:
 * a worker that dies mid-job leaves a `running` row whose lease runs out, and another worker takes it.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull().$type<Record<string, unknown>>(),
    /** A job of the same key is queued once (a scheduled run per minute, across instances). */
    key: text("key").unique(),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(5),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    ...timestamps,
  },
  (table) => [
    index("jobs_due_idx").on(table.runAt).where(sql`${table.status} in ('queued', 'running')`),
    index("jobs_status_idx").on(table.status, table.id),
  ],
);

// ---- Audit log: every change staff make, written in the transaction of the change itself.

export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // No foreign key: the entry outlives the account, which is why the e-mail of the time is kept too.
    actorId: text("actor_id").notNull(),
    actorEmail: text("actor_email").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    action: text("action").notNull(),
    before: jsonb("before"),
    after: jsonb("after"),
  },
  (table) => [
    index("audit_log_created_at_id").on(table.createdAt, table.id),
    index("audit_log_entity_created_at_id").on(table.entityType, table.createdAt, table.id),
    index("audit_log_actor_created_at_id").on(table.actorId, table.createdAt, table.id),
  ],
);

// ---- GST tax invoices and credit notes (docs/decisions/037 and 038).

export const TAX_DOCUMENT_KINDS = ["invoice", "credit_note"] as const;

/**
 * The last number given in each series (a kind and a financial year). Taken by an upsert that holds the
 * row's lock until the issuing transaction ends: concurrent issues queue on it, and a rolled-back issue
 * gives its number back, so a series has no gaps and never repeats.
 */
export const documentCounters = pgTable(
  "document_counters",
  {
    kind: text("kind", { enum: TAX_DOCUMENT_KINDS }).notNull(),
    financialYear: text("financial_year").notNull(),
    lastNumber: integer("last_number").notNull(),
  },
  (table) => [primaryKey({ columns: [table.kind, table.financialYear] })],
);

/** Who is named on a document, as it was when issued: later edits never rewrite an issued invoice. */
export type DocumentParty = {
  name: string;
  lines: string[];
  state: string;
  stateCode: string;
  gstin?: string | null;
  phone?: string | null;
  /** The seller's FSSAI licence, which a food business prints on its bills; absent on documents made before. */
  fssaiLicence?: string | null;
};

/**
 * Tax invoices (one per order, when it is confirmed) and credit notes (one per invoiced order that is
 * cancelled or returned, naming its invoice). Amounts are positive paise; the kind says which way they go.
 */
export const taxDocuments = pgTable(
  "tax_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind", { enum: TAX_DOCUMENT_KINDS }).notNull(),
    number: text("number").notNull().unique(),
    financialYear: text("financial_year").notNull(),
    sequence: integer("sequence").notNull(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    /** A credit note's invoice. */
    invoiceId: uuid("invoice_id").references((): AnyPgColumn => taxDocuments.id),
    reason: text("reason"),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    /**
     * When the goods were supplied (the order confirmed), on an invoice issued later than that: the owner
     * issuing one missed while the shop's GSTIN was unset (docs/decisions/060). Null: supplied when issued.
     */
    suppliedAt: timestamp("supplied_at", { withTimezone: true }),
    supplier: jsonb("supplier").$type<DocumentParty>().notNull(),
    buyer: jsonb("buyer").$type<DocumentParty>().notNull(),
    /** Place of supply: the delivery state, and whether it is the shop's own (CGST + SGST) or not (IGST). */
    placeOfSupply: text("place_of_supply").notNull(),
    intraState: boolean("intra_state").notNull(),
    taxablePaise: integer("taxable_paise").notNull(),
    cgstPaise: integer("cgst_paise").notNull(),
    sgstPaise: integer("sgst_paise").notNull(),
    igstPaise: integer("igst_paise").notNull(),
    totalPaise: integer("total_paise").notNull(),
  },
  (table) => [
    // An order edited after its invoice has several (docs/decisions/087): each invoice reversed by at most one
    // credit note, and one invoice at a time stands (not reversed), which the order's row lock keeps so.
    index("tax_documents_of_order").on(table.orderId, table.kind),
    uniqueIndex("tax_documents_one_credit_note_per_invoice")
      .on(table.invoiceId)
      .where(sql`${table.invoiceId} is not null`),
    uniqueIndex("tax_documents_series").on(table.kind, table.financialYear, table.sequence),
    index("tax_documents_issued_at").on(table.issuedAt),
    check("tax_documents_number_length", sql`char_length(${table.number}) <= 16`),
    check(
      "tax_documents_credit_names_invoice",
      sql`(${table.kind} = 'credit_note') = (${table.invoiceId} is not null)`,
    ),
    check(
      "tax_documents_total_adds_up",
      sql`${table.totalPaise} = ${table.taxablePaise} + ${table.cgstPaise} + ${table.sgstPaise} + ${table.igstPaise}`,
    ),
  ],
);

export const taxDocumentLines = pgTable(
  "tax_document_lines",
  {
    documentId: uuid("document_id")
      .notNull()
      .references(() => taxDocuments.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    kind: text("kind", { enum: ["goods", "shipping"] }).notNull(),
    description: text("description").notNull(),
    hsn: text("hsn"),
    quantity: integer("quantity").notNull(),
    unit: text("unit").notNull(),
    grossPaise: integer("gross_paise").notNull(),
    discountPaise: integer("discount_paise").notNull(),
    rateBp: integer("rate_bp").notNull(),
    taxablePaise: integer("taxable_paise").notNull(),
    cgstPaise: integer("cgst_paise").notNull(),
    sgstPaise: integer("sgst_paise").notNull(),
    igstPaise: integer("igst_paise").notNull(),
    totalPaise: integer("total_paise").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.documentId, table.position] }),
    check(
      "tax_document_lines_not_negative",
      sql`${table.taxablePaise} >= 0 and ${table.cgstPaise} >= 0 and ${table.sgstPaise} >= 0 and ${table.igstPaise} >= 0`,
    ),
  ],
);

// ---- The shop's own details and its promo banner: one row each, kept by the owner (docs/decisions/036).

/**
 * The seller's details the shop shows and invoices print. Migration 0016 writes the one row with the
 * brand's defaults; each start copies SHOP_NAME, SHOP_PHONE and SHOP_EMAIL into it until the owner first
 * saves the form (updated_by set), after which the owner's values stand.
 */
export const shopDetails = pgTable(
  "shop_details",
  {
    id: integer("id").primaryKey().default(1),
    legalName: text("legal_name").notNull(),
    addressLine1: text("address_line1"),
    addressLine2: text("address_line2").notNull().default(""),
    city: text("city"),
    pin: text("pin"),
    state: text("state"),
    phone: text("phone").notNull(),
    email: text("email").notNull(),
    gstin: text("gstin"),
    fssaiLicence: text("fssai_licence"),
    grievanceOfficerName: text("grievance_officer_name"),
    grievanceOfficerEmail: text("grievance_officer_email").notNull(),
    updatedBy: text("updated_by"),
    ...timestamps,
  },
  (table) => [
    check("shop_details_one_row", sql`${table.id} = 1`),
    check(
      "shop_details_address_whole",
      sql`(${table.addressLine1} is null) = (${table.city} is null) and (${table.city} is null) = (${table.pin} is null) and (${table.pin} is null) = (${table.state} is null)`,
    ),
  ],
);

/** The banner's offer; GLOW20 as the specification has it until the owner changes it. */
export const promoBanner = pgTable(
  "promo_banner",
  {
    id: integer("id").primaryKey().default(1),
    visible: boolean("visible").notNull().default(true),
    headline: text("headline").notNull(),
    details: text("details").notNull().default(""),
    code: text("code"),
    shortLabel: text("short_label").notNull(),
    ...timestamps,
  },
  (table) => [check("promo_banner_one_row", sql`${table.id} = 1`)],
);

// ---- The shop's settings the owner changes without a developer (docs/decisions/068).

/**
 * One row. A null column means "the environment's value" (SHOP_NAME, SHIPPING_FEE_PAISE,
 * FREE_SHIPPING_MIN_PAISE) or the built-in brand colour, so the environment gives only the first values:
 * the owner's first save writes every column, and from then on the owner's values stand.
 */
export const shopSettings = pgTable(
  "shop_settings",
  {
    id: integer("id").primaryKey().default(1),
    shopName: text("shop_name"),
    /** #rrggbb, lower case; checked for contrast with white text before it is stored. */
    brandColour: text("brand_colour"),
    /** An uploaded image's key (uploads/<hash>), stored as product photos are. */
    logo: text("logo"),
    shippingFeePaise: integer("shipping_fee_paise"),
    freeShippingMinPaise: integer("free_shipping_min_paise"),
    freeShippingBasis: text("free_shipping_basis", { enum: ["after_discount", "before_discount"] })
      .notNull()
      .default("after_discount"),
    /**
     * The shop's default parcel (docs/decisions/086): how an item with no weight of its own is packed, so a
     * booking never waits on the catalogue. Null weight: no default, such an item must be weighed first.
     */
    defaultItemWeightGrams: integer("default_item_weight_grams"),
    defaultItemLengthCm: integer("default_item_length_cm"),
    defaultItemBreadthCm: integer("default_item_breadth_cm"),
    defaultItemHeightCm: integer("default_item_height_cm"),
    /**
     * The owner's choice to text guests their parcel's news (shipped, out for delivery, delivered, not
     * delivered) besides the mail: each SMS is a cost to her, so it starts off (docs/decisions/079).
     */
    guestDeliverySms: boolean("guest_delivery_sms").notNull().default(false),
    updatedBy: text("updated_by"),
    ...timestamps,
  },
  (table) => [
    check("shop_settings_one_row", sql`${table.id} = 1`),
    check("shop_settings_brand_colour", sql`${table.brandColour} ~ '^#[0-9a-f]{6}$'`),
    check("shop_settings_shipping_fee", sql`${table.shippingFeePaise} >= 0`),
    check("shop_settings_free_shipping_min", sql`${table.freeShippingMinPaise} >= 0`),
    check(
      "shop_settings_free_shipping_basis",
      sql`${table.freeShippingBasis} in ('after_discount', 'before_discount')`,
    ),
    check(
      "shop_settings_default_item_size",
      sql`coalesce(${table.defaultItemWeightGrams}, 1) > 0 and coalesce(${table.defaultItemLengthCm}, 1) > 0 and coalesce(${table.defaultItemBreadthCm}, 1) > 0 and coalesce(${table.defaultItemHeightCm}, 1) > 0`,
    ),
  ],
);

/**
 * The home page's slides, in the order shown (position 0 first). The owner saves the whole list at once,
 * so it is replaced in one transaction; migration 0033 writes the five the shop shipped with.
 */
export const heroSlides = pgTable(
  "hero_slides",
  {
    position: integer("position").primaryKey(),
    active: boolean("active").notNull().default(true),
    eyebrow: text("eyebrow").notNull(),
    heading: text("heading").notNull(),
    text: text("text").notNull(),
    buttonLabel: text("button_label").notNull(),
    /** A path on the shop ("/#featured", "/product/neem-comb"). */
    buttonTarget: text("button_target").notNull(),
    /** A bundled catalogue image or an upload (uploads/<hash>), as product images are keyed. */
    image: text("image").notNull(),
    imageAlt: text("image_alt").notNull(),
    /** One of the washes the page offers (common/schemas/hero-slides.ts). */
    tone: text("tone").notNull(),
    ...timestamps,
  },
  (table) => [check("hero_slides_position", sql`${table.position} between 0 and 9`)],
);

// ---- Blog articles and the shop's fixed pages, in Markdown, edited by the owner (docs/decisions/071).

export const contentPages = pgTable(
  "content_pages",
  {
    id: serial("id").primaryKey(),
    /** "post" (/blog/:slug) or "page" (/:slug, one of common/schemas/content-pages.ts FIXED_PAGE_SLUGS). */
    kind: text("kind").notNull(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    /** An article's byline; fixed pages have none. */
    author: text("author"),
    /** Markdown, rendered and made safe on the server (server/content/render-markdown.ts). */
    body: text("body").notNull(),
    published: boolean("published").notNull().default(false),
    /** An Indian calendar date; set when first published unless the owner gives one. */
    publishedOn: date("published_on", { mode: "string" }),
    /** The account that last saved it; null for what the migration wrote. */
    updatedBy: text("updated_by"),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("content_pages_kind_slug").on(table.kind, table.slug),
    check("content_pages_kind", sql`${table.kind} in ('post', 'page')`),
    check("content_pages_slug", sql`${table.slug} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    check("content_pages_published_on", sql`not ${table.published} or ${table.publishedOn} is not null`),
  ],
);

// ---- Delivery rules: PIN codes or prefixes the owner does not serve, or serves without cash on delivery.

export const deliveryRules = pgTable(
  "delivery_rules",
  {
    /** 1-6 digits; the longest prefix matching a PIN decides for it (common/delivery-check.ts). */
    prefix: text("prefix").primaryKey(),
    // "No cash on delivery" by PIN is a COD place rule (cod_place_rules), not a delivery rule (decision 062).
    rule: text("rule", { enum: ["not_served", "served"] }).notNull(),
    note: text("note").notNull().default(""),
    ...timestamps,
  },
  (table) => [
    check("delivery_rules_prefix", sql`${table.prefix} ~ '^[1-9][0-9]{0,5}$'`),
    check("delivery_rules_rule", sql`${table.rule} in ('not_served', 'served')`),
  ],
);

// ---- Shipping through a courier aggregator (docs/decisions/052)

export const NDR_STATES = ["open", "reattempt_requested", "return_requested", "closed"] as const;
/**
 * What became of a shopper's answer to a failed delivery: `asking` while the aggregator is asked, `sent` when
 * it took it, `refused` when it refused or did not answer (the owner passes it on by hand), `passed_on` when
 * staff then sent another attempt or the return themselves.
 */
export const DELIVERY_REQUEST_OUTCOMES = ["asking", "sent", "refused", "passed_on"] as const;

/**
 * A parcel booked with an aggregator for an order. The row is written before the aggregator is asked
 * (status "booking", no AWB), so a second click finds it and books nothing; a refusal deletes it again.
 */
export const shipments = pgTable(
  "shipments",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    /** Which aggregator ("Shiprocket"). */
    service: text("service").notNull(),
    /** "booking" while the aggregator is being asked; then where the parcel is. */
    status: text("status", { enum: ["booking", ...SHIPMENT_STATUSES] }).notNull(),
    /**
     * The order id the aggregator was given (its "order_id", unique per account for ever): the order number,
     * then "-2", "-3" ... for a booking tried again after a refusal, since Shiprocket refuses the id of an order
     * it cancelled (docs/decisions/077).
     */
    reference: text("reference"),
    aggregatorOrderId: text("aggregator_order_id"),
    aggregatorShipmentId: text("aggregator_shipment_id"),
    awb: text("awb").unique(),
    courierId: text("courier_id"),
    courierName: text("courier_name"),
    labelUrl: text("label_url"),
    chargesPaise: integer("charges_paise"),
    /** What the courier's return would cost, as serviceability quoted it (rto_charges); null when not quoted. */
    rtoChargesPaise: integer("rto_charges_paise"),
    /** The cash the courier was told to collect (sub_total of a COD order); null for a prepaid parcel. */
    codAmountPaise: integer("cod_amount_paise"),
    /** Shiprocket's manifest for the pickup, made after the pickup was asked for. */
    manifestUrl: text("manifest_url"),
    weightGrams: integer("weight_grams").notNull(),
    pickupScheduledFor: text("pickup_scheduled_for"),
    /** When the last scan happened (the courier's time) and when the shop last heard of the parcel. */
    lastScanAt: timestamp("last_scan_at", { withTimezone: true }),
    lastHeardAt: timestamp("last_heard_at", { withTimezone: true }),
    /** A failed delivery (NDR): open until the shopper or the owner chooses; what was chosen. */
    ndrState: text("ndr_state", { enum: NDR_STATES }),
    ndrReason: text("ndr_reason"),
    ndrNote: text("ndr_note"),
    /**
     * The shopper's answer to the failed delivery (an account's or a guest's): the day asked for (YYYY-MM-DD),
     * the corrected address or mobile if any, when, and what the aggregator did with it. Kept whatever the
     * aggregator answered, so the owner can pass a refused one on by hand (docs/decisions/082).
     */
    requestDay: text("request_day"),
    requestLine1: text("request_line1"),
    requestLine2: text("request_line2"),
    requestPhone: text("request_phone"),
    requestedAt: timestamp("requested_at", { withTimezone: true }),
    requestOutcome: text("request_outcome", { enum: DELIVERY_REQUEST_OUTCOMES }),
    /** The aggregator's own words when it refused the request: for the owner, never shown to the shopper. */
    requestCourierSaid: text("request_courier_said"),
    /** Staff marked a parcel returned to origin as received back (stock restored). */
    receivedBackAt: timestamp("received_back_at", { withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    // One live parcel per order: the last guard against booking twice, under any race.
    uniqueIndex("shipments_one_live_per_order").on(table.orderId).where(sql`${table.status} <> 'cancelled'`),
    index("shipments_status_last_heard_idx").on(table.status, table.lastHeardAt),
    index("shipments_ndr_state_idx").on(table.ndrState).where(sql`${table.ndrState} is not null`),
    // The admin home's work counts (server/analytics/work.ts): exactly the parcels each counts, so a count
    // costs the parcels waiting, not every parcel sent.
    index("shipments_failed_deliveries_idx")
      .on(table.orderId)
      .where(
        sql`${table.status} <> 'cancelled' and (${table.ndrState} = 'open' or (${table.ndrState} = 'reattempt_requested' and ${table.requestOutcome} in ('asking', 'refused')))`,
      ),
    index("shipments_to_receive_idx")
      .on(table.orderId)
      .where(sql`${table.status} = 'rto_delivered' and ${table.receivedBackAt} is null`),
  ],
);

/**
 * Each courier scan, once: the same scan sent again (every webhook carries all scans so far, and polling
 * reads them too) hits the unique key and is skipped. The parcel's status is that of its latest scan by
 * the courier's time, so scans arriving out of order still leave the right status.
 */
export const shipmentScans = pgTable(
  "shipment_scans",
  {
    id: serial("id").primaryKey(),
    shipmentId: text("shipment_id")
      .notNull()
      .references(() => shipments.id, { onDelete: "cascade" }),
    scannedAt: timestamp("scanned_at", { withTimezone: true }).notNull(),
    code: text("code").notNull(),
    label: text("label").notNull(),
    activity: text("activity").notNull(),
    location: text("location").notNull(),
    status: text("status", { enum: SHIPMENT_STATUSES }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("shipment_scans_once").on(table.shipmentId, table.scannedAt, table.code, table.label),
  ],
);

// ---- Cash on delivery counted (docs/decisions/059)

/**
 * The cash a courier collected for a delivered cash-on-delivery order, once recorded: by staff by hand, or
 * from the courier's or aggregator's remittance report. One row per order (the unique key), so recording the
 * same cash twice, or importing the same report twice at once, records it once.
 */
export const codRemittances = pgTable(
  "cod_remittances",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    orderId: text("order_id")
      .notNull()
      .unique()
      .references(() => orders.id, { onDelete: "cascade" }),
    amountPaise: integer("amount_paise").notNull(),
    /** The day the remittance says the cash was collected or paid over (India's calendar). */
    collectedOn: date("collected_on", { mode: "string" }).notNull(),
    /** The courier's remittance id, UTR or receipt number: what an accountant matches the bank line to. */
    reference: text("reference").notNull(),
    source: text("source", { enum: ["manual", "import"] }).notNull(),
    /** Null once that staff account is deleted; the audit log keeps the e-mail. */
    recordedBy: text("recorded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("cod_remittances_collected_on_idx").on(table.collectedOn),
    check("cod_remittances_amount_positive", sql`${table.amountPaise} > 0`),
  ],
);

// ---- The owner's cash-on-delivery rules and parcels returned to origin (docs/decisions/062)

/**
 * The owner's COD switches, one row. While `updated_by` is null (never saved) the environment's COD_ENABLED and
 * COD_MAX_ORDER_PAISE are read instead of the two first columns: the environment gives only first values.
 */
export const codSettings = pgTable(
  "cod_settings",
  {
    id: integer("id").primaryKey().default(1),
    enabled: boolean("enabled").notNull().default(true),
    maxOrderPaise: integer("max_order_paise").notNull().default(500_000),
    firstOrderMaxPaise: integer("first_order_max_paise"),
    prepaidOnlyAfterRtos: integer("prepaid_only_after_rtos"),
    /**
     * Hours a shopper has to confirm a cash-on-delivery order before the shop cancels it (docs/decisions/065);
     * null: COD_CONFIRM_HOURS. Saved on its own, so it does not count as saving the switches (updated_by).
     */
    confirmHours: integer("confirm_hours"),
    /**
     * The reward for paying online (common/prepaid-incentive.ts, docs/decisions/072): none, percent (with
     * prepaid_percent and an optional prepaid_cap_paise), flat (prepaid_amount_paise) or free_shipping. Saved
     * on its own, like the hours.
     */
    prepaidIncentive: text("prepaid_incentive", { enum: ["none", "percent", "flat", "free_shipping"] })
      .notNull()
      .default("none"),
    prepaidPercent: integer("prepaid_percent"),
    prepaidCapPaise: integer("prepaid_cap_paise"),
    prepaidAmountPaise: integer("prepaid_amount_paise"),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (table) => [
    check("cod_settings_one_row", sql`${table.id} = 1`),
    check(
      "cod_settings_amounts",
      sql`${table.maxOrderPaise} >= 0 and coalesce(${table.firstOrderMaxPaise}, 0) >= 0 and coalesce(${table.prepaidOnlyAfterRtos}, 1) >= 1`,
    ),
    check("cod_settings_confirm_hours", sql`coalesce(${table.confirmHours}, 1) between 1 and 720`),
    check(
      "cod_settings_prepaid_incentive",
      sql`(${table.prepaidIncentive} = 'none' or ${table.prepaidIncentive} = 'free_shipping') or (${table.prepaidIncentive} = 'percent' and ${table.prepaidPercent} between 1 and 50 and coalesce(${table.prepaidCapPaise}, 1) > 0) or (${table.prepaidIncentive} = 'flat' and ${table.prepaidAmountPaise} > 0)`,
    ),
  ],
);

/** COD off (max_paise null) or capped for a PIN or PIN prefix, a district or a state. */
export const codPlaceRules = pgTable(
  "cod_place_rules",
  {
    id: integer("id").primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: ["pin", "district", "state"] }).notNull(),
    value: text("value").notNull(),
    maxPaise: integer("max_paise"),
    note: text("note").notNull().default(""),
    ...timestamps,
  },
  (table) => [
    // A district typed "patna" and "Patna" is one district.
    uniqueIndex("cod_place_rules_kind_value").on(table.kind, sql`lower(${table.value})`),
    check("cod_place_rules_kind", sql`${table.kind} in ('pin', 'district', 'state')`),
    check("cod_place_rules_max", sql`coalesce(${table.maxPaise}, 0) >= 0`),
  ],
);

/**
 * A cash-on-delivery order its shopper chose to pay online instead, from the confirmation link
 * (docs/decisions/072): the Razorpay order made for it and the order's figures once paid that way, priced
 * when the switch was asked for. One per order (the key), so a second tap opens the same payment; the order
 * stays cash on delivery until the payment is verified.
 */
export const codPaymentSwitches = pgTable(
  "cod_payment_switches",
  {
    orderId: text("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    razorpayOrderId: text("razorpay_order_id").notNull().unique(),
    shippingPaise: integer("shipping_paise").notNull(),
    prepaidDiscountPaise: integer("prepaid_discount_paise").notNull(),
    prepaidShippingWaivedPaise: integer("prepaid_shipping_waived_paise").notNull(),
    totalPaise: integer("total_paise").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      "cod_payment_switches_amounts",
      sql`${table.shippingPaise} >= 0 and ${table.prepaidDiscountPaise} >= 0 and ${table.prepaidShippingWaivedPaise} >= 0 and ${table.totalPaise} >= 0`,
    ),
  ],
);

/**
 * A parcel returned to origin: one row per order (the key), written with the order's move to
 * returned_to_origin. `received_at` is set once, by the update that puts the stock back, so a second click or
 * a concurrent one finds it set and restocks nothing.
 */
export const orderRto = pgTable(
  "order_rto",
  {
    orderId: text("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    source: text("source", { enum: ["manual", "tracking"] }).notNull(),
    /** What the shop paid to send the parcel and to have it brought back. */
    forwardPaise: integer("forward_paise").notNull(),
    returnPaise: integer("return_paise").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull(),
    recordedBy: text("recorded_by").references(() => users.id, { onDelete: "set null" }),
    receivedAt: timestamp("received_at", { withTimezone: true }),
    receivedBy: text("received_by").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [
    index("order_rto_recorded_at_idx").on(table.recordedAt),
    check("order_rto_costs", sql`${table.forwardPaise} >= 0 and ${table.returnPaise} >= 0`),
  ],
);

/**
 * Replies that came through WhatsApp's webhook, by WhatsApp's message id: Meta delivers a webhook at least
 * once, so a reply is acted on only the first time its id is seen.
 */
/**
 * Each template message WhatsApp accepted, by its id ("wamid..."), and the latest status Meta's webhook
 * reported for it (statuses[]: sent, delivered, read, failed with its error), so a question that never reached
 * the shopper is seen as such (docs/decisions/078).
 */
export const whatsappMessages = pgTable(
  "whatsapp_messages",
  {
    messageId: text("message_id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    status: text("status", { enum: ["accepted", "sent", "delivered", "read", "failed"] }).notNull(),
    errorCode: integer("error_code"),
    errorTitle: text("error_title"),
    /** When Meta said the latest status happened (its timestamp), to keep the latest whatever order they come in. */
    statusAt: timestamp("status_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("whatsapp_messages_order_idx").on(table.orderId)],
);

export const whatsappReplies = pgTable("whatsapp_replies", {
  messageId: text("message_id").primaryKey(),
  orderId: text("order_id").references(() => orders.id, { onDelete: "cascade" }),
  action: text("action").notNull(),
  /** What the reply came to: applied, or why not (the order had moved on, an unknown order ...). */
  outcome: text("outcome").notNull(),
  sentAt: timestamp("sent_at", { withTimezone: true }).notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
});

// ---- Money has one record (docs/decisions/075)

/**
 * Every Razorpay order the shop made, for Checkout or for "pay online instead", with the amount it asks for:
 * a payment names its Razorpay order, and is applied to our order only while that Razorpay order is still the
 * one the order waits on (`closed_at` null). A payment for a closed one is refunded automatically.
 */
export const razorpayOrders = pgTable(
  "razorpay_orders",
  {
    id: text("id").primaryKey(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    purpose: text("purpose", { enum: ["checkout", "switch"] }).notNull(),
    amountPaise: integer("amount_paise").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Set when the order changed in a way this payment no longer fits (an edit, a confirmation for cash). */
    closedAt: timestamp("closed_at", { withTimezone: true }),
    closedReason: text("closed_reason"),
  },
  (table) => [
    index("razorpay_orders_order_id_idx").on(table.orderId),
    check("razorpay_orders_amount_positive", sql`${table.amountPaise} > 0`),
  ],
);

export const MONEY_KINDS = [
  "online_payment",
  "online_refund",
  "cash_collected",
  "cash_refund",
  "cod_remittance",
  "courier_charge",
] as const;
export type MoneyKind = (typeof MONEY_KINDS)[number];

/**
 * The ledger: one row for every movement of money, written in the transaction of the order change it belongs
 * to. An order's "paid online", "refund due" and "cash to collect" are sums over it (server/money/ledger.ts),
 * and the trigger in migration 0042 refuses any commit after which they do not add up.
 */
export const moneyLedger = pgTable(
  "money_ledger",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id),
    kind: text("kind", { enum: MONEY_KINDS }).notNull(),
    amountPaise: integer("amount_paise").notNull(),
    /**
     * For online payments and their refunds: whether the payment pays this order (true) or arrived when it no
     * longer could and is refunded in full (false). A refund carries the flag of the payment it refunds.
     */
    applied: boolean("applied").notNull().default(true),
    razorpayOrderId: text("razorpay_order_id"),
    razorpayPaymentId: text("razorpay_payment_id"),
    razorpayRefundId: text("razorpay_refund_id").unique(),
    /** A remittance's UTR, a cash refund's UPI or bank reference, a courier's AWB. */
    reference: text("reference"),
    /** The staff member who recorded it; null for the gateway, the courier or the shop itself. */
    recordedBy: text("recorded_by").references(() => users.id, { onDelete: "set null" }),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("money_ledger_order_id_idx").on(table.orderId),
    index("money_ledger_created_at_idx").on(table.createdAt),
    // "Sales at a glance" sums a period's refunds (docs/decisions/088): only refund rows, so a year's range reads
    // the year's refunds, not every payment, collection and remittance of it. Migration 0058 rebuilds it with
    // the columns the sums read INCLUDEd (kind, applied, order_id, amount_paise), so they come from the index
    // alone, not from one ledger page per refund (docs/decisions/097).
    index("money_ledger_refunds_created_at_idx")
      .on(table.createdAt)
      .where(sql`${table.kind} in ('online_refund', 'cash_refund')`),
    // A captured payment is recorded once, however often the browser and the webhook tell of it.
    uniqueIndex("money_ledger_one_capture")
      .on(table.razorpayPaymentId)
      .where(sql`${table.kind} = 'online_payment'`),
    // A payment that could not be applied is refunded once: its one refund is the whole amount.
    uniqueIndex("money_ledger_one_unapplied_refund")
      .on(table.razorpayPaymentId)
      .where(sql`${table.kind} = 'online_refund' and not ${table.applied}`),
    check("money_ledger_amount_positive", sql`${table.amountPaise} > 0`),
    check(
      "money_ledger_online_ids",
      sql`(${table.kind} not in ('online_payment', 'online_refund')) or ${table.razorpayPaymentId} is not null`,
    ),
  ],
);

/**
 * The ledger's refunds per Indian day, as deltas written by a statement trigger on money_ledger in the statement
 * that writes, changes or removes a refund (only inserted, like sales_day_deltas): per day, way (online, byHand,
 * latePayments, and all = online and byHand together) and the day of the same order's previous refund of that
 * way (null for its first), how many refunds and their amount. A period counts an order once per way: its refunds
 * in the period whose previous refund of the way is before the period or none are exactly one per order
 * (docs/decisions/094), so the period's days are read, never its refunds.
 */
export const refundDayDeltas = pgTable(
  "refund_day_deltas",
  {
    day: date("day", { mode: "string" }).notNull(),
    way: text("way", { enum: ["online", "byHand", "latePayments", "all"] }).notNull(),
    previousDay: date("previous_day", { mode: "string" }),
    refunds: integer("refunds").notNull(),
    amountPaise: bigint("amount_paise", { mode: "number" }).notNull(),
  },
  (table) => [index("refund_day_deltas_day_idx").on(table.day)],
);

// ---- What the owner sees of the business (docs/decisions/080)

/**
 * The owner's choices about the sales figures, one row: whether staff see "Sales at a glance" too. Absent
 * row: staff do not (sales are the owner's to share).
 */
export const analyticsSettings = pgTable(
  "analytics_settings",
  {
    id: integer("id").primaryKey().default(1),
    staffSeeSales: boolean("staff_see_sales").notNull().default(false),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (table) => [check("analytics_settings_one_row", sql`${table.id} = 1`)],
);

// ---- The funnel, counted by the shop from its own requests (docs/decisions/090)

/**
 * Today's (and yesterday's) random salt, one row a day, shared by every instance: a visitor is the hash of the
 * day's salt with their address and browser. A day's salt is deleted once the day is over, after which nobody,
 * the shop included, can tell whose visits the day's hashes were.
 */
export const funnelSalts = pgTable("funnel_salts", {
  day: date("day", { mode: "string" }).primaryKey(),
  salt: text("salt").notNull(),
});

/**
 * One row per step a visitor reached on a day, kept only until the day is rolled up into funnel_days (the day
 * after next): the primary key makes every instance's flushes additive and each session counted once.
 */
export const funnelVisits = pgTable(
  "funnel_visits",
  {
    day: date("day", { mode: "string" }).notNull(),
    step: text("step", { enum: FUNNEL_STEPS }).notNull(),
    visitor: text("visitor").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.day, table.step, table.visitor] }),
    check("funnel_visits_step", sql`${table.step} in ('viewed', 'added', 'checkout', 'ordered')`),
  ],
);

/**
 * Which visitor placed which order that day, kept as briefly as funnel_visits: "paid" is read from the order
 * itself (captured online, or a cash-on-delivery order confirmed), whenever and by whomever that happens.
 */
export const funnelOrders = pgTable(
  "funnel_orders",
  {
    orderId: text("order_id").primaryKey(),
    day: date("day", { mode: "string" }).notNull(),
    visitor: text("visitor").notNull(),
  },
  (table) => [index("funnel_orders_day_idx").on(table.day)],
);

/**
 * funnel_visits counted per day and step, kept by statement triggers on funnel_visits in the statement that
 * writes or deletes its rows (docs/decisions/094): the admin's funnel reads today's and yesterday's sessions
 * from a few rows instead of counting every visitor. Only the instances' flushes write it, never a request.
 */
export const funnelVisitCounts = pgTable(
  "funnel_visit_counts",
  {
    day: date("day", { mode: "string" }).notNull(),
    step: text("step", { enum: FUNNEL_STEPS }).notNull(),
    sessions: integer("sessions").notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.step] })],
);

/** Sessions per step per day once the visitors are forgotten: five rows a day, whatever the shop's traffic. */
export const funnelDays = pgTable(
  "funnel_days",
  {
    day: date("day", { mode: "string" }).notNull(),
    step: text("step", { enum: FUNNEL_STEPS }).notNull(),
    sessions: integer("sessions").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.day, table.step] }),
    check("funnel_days_sessions", sql`${table.sessions} >= 0`),
  ],
);

/**
 * The owner's switch, one row: absent, the shop counts. `changedAt` is when it was last turned, so visits an
 * instance held in memory from before it was turned on are not counted.
 */
export const funnelSettings = pgTable(
  "funnel_settings",
  {
    id: integer("id").primaryKey().default(1),
    counting: boolean("counting").notNull().default(true),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
  },
  (table) => [check("funnel_settings_one_row", sql`${table.id} = 1`)],
);

// ---- Carts left behind and the reminders that win them back (docs/decisions/089)

/** The owner's choices about cart reminders, one row; absent: the defaults below. */
export const cartReminderSettings = pgTable(
  "cart_reminder_settings",
  {
    id: integer("id").primaryKey().default(1),
    enabled: boolean("enabled").notNull().default(true),
    /** How long a cart rests untouched before its reminder. */
    delayMinutes: integer("delay_minutes").notNull().default(60),
    /** A second reminder a day after the first; never more than two. */
    secondReminder: boolean("second_reminder").notNull().default(false),
    /** Percent off of the shopper's own single-use code, or 0 for no code. */
    codePercent: integer("code_percent").notNull().default(0),
    codeDays: integer("code_days").notNull().default(3),
    updatedBy: text("updated_by").references(() => users.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (table) => [
    check("cart_reminder_settings_one_row", sql`${table.id} = 1`),
    check("cart_reminder_settings_delay", sql`${table.delayMinutes} between 15 and 4320`),
    check("cart_reminder_settings_code", sql`${table.codePercent} between 0 and 50`),
    check("cart_reminder_settings_days", sql`${table.codeDays} between 1 and 30`),
  ],
);

/** "whatsapp": the shopper stopped marketing messages in WhatsApp itself (Meta refused a send with 131050). */
export const CONSENT_SOURCES = [
  "checkout",
  "account",
  "unsubscribe_link",
  "mail_client",
  "whatsapp",
] as const;
/** Each channel is its own consent in law: a yes to e-mail is no yes to WhatsApp (docs/decisions/096). */
export const CONSENT_CHANNELS = ["email", "whatsapp"] as const;

/**
 * Every yes and no to marketing mail (cart reminders and offers), by address, with when and how it was
 * given: the latest row for an address is its standing answer. Kept, not overwritten, as the record a
 * shopper or a regulator may ask for.
 */
export const marketingConsents = pgTable(
  "marketing_consents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    channel: text("channel", { enum: CONSENT_CHANNELS }).notNull().default("email"),
    /** Lower-cased; the address of an e-mail consent. */
    email: text("email"),
    /** Ten digits; the number of a WhatsApp consent. */
    mobile: text("mobile"),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    consented: boolean("consented").notNull(),
    source: text("source", { enum: CONSENT_SOURCES }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("marketing_consents_email_created_at").on(table.email, table.createdAt),
    index("marketing_consents_mobile_created_at").on(table.mobile, table.createdAt),
    index("marketing_consents_user_channel").on(table.userId, table.channel, table.createdAt),
    check(
      "marketing_consents_address",
      sql`(${table.channel} = 'email' and ${table.email} is not null) or (${table.channel} = 'whatsapp' and ${table.mobile} ~ '^[6-9][0-9]{9}$')`,
    ),
  ],
);

export const LEFT_CART_CLOSED = [
  "ordered",
  "emptied",
  "no_consent",
  "unsubscribed",
  "no_email",
  "recently_reminded",
  "off",
] as const;

/**
 * A cart left behind: a signed-in shopper's saved cart as it stood when last touched, or a guest's checkout
 * that got as far as an e-mail or a mobile (the lines sent with it, as the browser holds them). One row per
 * resting cart; its reminders are counted here, so a reminder is sent at most once under any number of
 * sweeps and workers.
 */
export const leftCarts = pgTable(
  "left_carts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Whose cart: "user:<id>" or "guest:<e-mail or mobile>". */
    subject: text("subject").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** A guest's e-mail (lower-cased) and mobile; an account's are read when the reminder goes. */
    email: text("email"),
    mobile: text("mobile"),
    /** The lines: a guest's as sent at checkout; an account's as they stood when the reminder went. */
    items: jsonb("items").$type<{ id: string; kind: "product" | "combo"; quantity: number }[]>(),
    touchedAt: timestamp("touched_at", { withTimezone: true }).notNull(),
    remindersSent: integer("reminders_sent").notNull().default(0),
    firstRemindedAt: timestamp("first_reminded_at", { withTimezone: true }),
    lastRemindedAt: timestamp("last_reminded_at", { withTimezone: true }),
    discountCode: text("discount_code").references(() => discountCodes.code),
    /** Why no (further) reminder goes: the shopper ordered, emptied the cart, gave no consent, ... */
    closedReason: text("closed_reason", { enum: LEFT_CART_CLOSED }),
    /** The one WhatsApp reminder (docs/decisions/096): when WhatsApp took it and its id, or what it refused. */
    whatsappSentAt: timestamp("whatsapp_sent_at", { withTimezone: true }),
    whatsappMessageId: text("whatsapp_message_id"),
    whatsappRefused: text("whatsapp_refused"),
    /**
     * The total of the order that won this cart back, if one did (docs/decisions/099): the shopper's first order,
     * not cancelled, within WON_BACK_DAYS of the first reminder. Kept by triggers (migration
     * cart_reminder_day_deltas) as the orders, this row and the account's e-mail change; never written by the app.
     */
    wonPaise: integer("won_paise"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // One cart waiting for its first reminder per shopper: a guest's checkout typed again updates it.
    uniqueIndex("left_carts_one_waiting")
      .on(table.subject)
      .where(sql`${table.remindersSent} = 0 and ${table.closedReason} is null`),
    index("left_carts_subject_touched_at").on(table.subject, table.touchedAt),
    index("left_carts_touched_at").on(table.touchedAt),
    // An order's shopper's carts, found by its triggers to see whether the order won one back.
    index("left_carts_user_id").on(table.userId).where(sql`${table.userId} is not null`),
    index("left_carts_email").on(table.email).where(sql`${table.email} is not null`),
    check("left_carts_reminders", sql`${table.remindersSent} between 0 and 2`),
  ],
);

/**
 * "Carts left behind" per day the cart was left (docs/decisions/099): what each counted left cart adds to its day,
 * written by statement triggers on left_carts in the statement that changes the rows, and only ever inserted (as
 * sales_day_deltas); readers sum a period's rows. Won back and revenue follow left_carts.won_paise.
 */
export const leftCartDayDeltas = pgTable(
  "left_cart_day_deltas",
  {
    day: date("day", { mode: "string" }).notNull(),
    leftBehind: integer("left_behind").notNull(),
    reminded: integer("reminded").notNull(),
    remindersSent: integer("reminders_sent").notNull(),
    whatsappSent: integer("whatsapp_sent").notNull(),
    wonBack: integer("won_back").notNull(),
    revenuePaise: bigint("revenue_paise", { mode: "number" }).notNull(),
    noConsent: integer("no_consent").notNull(),
    unsubscribed: integer("unsubscribed").notNull(),
  },
  (table) => [index("left_cart_day_deltas_day_idx").on(table.day)],
);
