import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { CartEntry } from "../../common/cart.ts";
import { codeUnavailable, normalizeCode } from "../../common/discount.ts";
import {
  type OrderPricing,
  type PricingDiscount,
  type PricingItem,
  priceOrder,
} from "../../common/order-pricing.ts";
import type { DbOrTx } from "../db/client.ts";
import {
  cartItems,
  carts,
  combos,
  discountCodes,
  discountUses,
  guestDiscountUses,
  products,
  users,
} from "../db/schema.ts";
import type { Env } from "../env.ts";

export type CartForOrder = {
  pricing: OrderPricing;
  /** The cart's applied code, as stored (whether or not it can still be used). */
  discountCode: string | null;
  /** That code's uses per customer (null: no limit). */
  usesPerCustomer: number | null;
};

/**
 * Who is ordering. A signed-in shopper's cart is the saved one; a guest's lives in the browser and comes
 * with the order, with the e-mail and mobile the code's one use per customer is counted by.
 */
export type Buyer =
  | { kind: "account"; userId: string }
  | {
      kind: "guest";
      email: string;
      mobile: string;
      items: readonly CartEntry[];
      discountCode: string | null;
    };

/** What a guest's one use of a code is recorded under (guest_discount_uses.contact). */
export const guestContacts = (buyer: { email: string; mobile: string }) => [
  `email:${buyer.email}`,
  `mobile:${buyer.mobile}`,
];

type CartRow = {
  itemId: string;
  kind: "product" | "combo";
  quantity: number;
  addedPricePaise: number | null;
};

/**
 * The shopper's cart priced for an order: current prices, stock and the applied code, the same for a
 * signed-in shopper and a guest.
 * With `lock`, inside the order transaction, it holds the row lock on the cart and the discount use, so
 * nothing it decided on can change before the order commits. Products and combos are read without a lock:
 * the order takes their stock last, by one conditional UPDATE each (place-order.ts), so a product everyone
 * wants is locked only from that update to the commit, not for the whole order (docs/decisions/060).
 *
 * This is the one place an order is priced; the cart's own pricing can replace the loading half.
 */
export async function loadCartForOrder(
  db: DbOrTx,
  env: Env,
  buyer: Buyer,
  { lock }: { lock: boolean },
): Promise<CartForOrder> {
  const shipping = {
    freeShippingMinPaise: env.FREE_SHIPPING_MIN_PAISE,
    shippingFeePaise: env.SHIPPING_FEE_PAISE,
  };
  let rows: CartRow[];
  let discountCode: string | null;
  if (buyer.kind === "account") {
    const cartQuery = db
      .select({ discountCode: carts.discountCode })
      .from(carts)
      .where(eq(carts.userId, buyer.userId));
    const [cart] = lock ? await cartQuery.for("update") : await cartQuery;
    if (!cart) {
      return {
        pricing: priceOrder({ items: [], discount: null, shipping }),
        discountCode: null,
        usesPerCustomer: null,
      };
    }
    discountCode = cart.discountCode;
    rows = await db
      .select()
      .from(cartItems)
      .where(eq(cartItems.userId, buyer.userId))
      .orderBy(asc(cartItems.createdAt), asc(cartItems.itemId));
  } else {
    discountCode = buyer.discountCode ? normalizeCode(buyer.discountCode) : null;
    // A guest's cart records no price from when it was added; today's price is the one compared against.
    rows = buyer.items.map((entry) => ({
      itemId: entry.id,
      kind: entry.kind,
      quantity: entry.quantity,
      addedPricePaise: null,
    }));
  }
  const productSlugs = rows.filter((row) => row.kind === "product").map((row) => row.itemId);
  const comboIds = rows.filter((row) => row.kind === "combo").map((row) => row.itemId);

  const productQuery = db
    .select({
      slug: products.slug,
      name: products.name,
      pricePaise: products.pricePaise,
      stock: products.stock,
      active: products.active,
      images: products.images,
      category: products.category,
    })
    .from(products)
    .where(inArray(products.slug, productSlugs.length ? productSlugs : [""]))
    .orderBy(asc(products.slug));
  const comboQuery = db
    .select({
      id: combos.id,
      title: combos.title,
      salePricePaise: combos.salePricePaise,
      stock: combos.stock,
      active: combos.active,
      image: combos.image,
      productSlugs: combos.productSlugs,
    })
    .from(combos)
    .where(inArray(combos.id, comboIds.length ? comboIds : [""]))
    .orderBy(asc(combos.id));
  const productRows = productSlugs.length ? await productQuery : [];
  const comboRows = comboIds.length ? await comboQuery : [];

  // A combo is sold only while all its products are; perishable when any of them is a food.
  const memberSlugs = [...new Set(comboRows.flatMap((combo) => combo.productSlugs))];
  const members = memberSlugs.length
    ? await db
        .select({ slug: products.slug, active: products.active, category: products.category })
        .from(products)
        .where(inArray(products.slug, memberSlugs))
    : [];
  const memberBySlug = new Map(members.map((member) => [member.slug, member]));

  const productBySlug = new Map(productRows.map((row) => [row.slug, row]));
  const comboById = new Map(comboRows.map((row) => [row.id, row]));
  const items: PricingItem[] = rows.map((row) => {
    const base = {
      itemId: row.itemId,
      kind: row.kind,
      quantity: row.quantity,
      addedPricePaise: row.addedPricePaise ?? 0,
    };
    if (row.kind === "product") {
      const product = productBySlug.get(row.itemId);
      if (!product?.active) return { ...base, current: null };
      return {
        ...base,
        addedPricePaise: row.addedPricePaise ?? product.pricePaise,
        current: {
          name: product.name,
          unitPricePaise: product.pricePaise,
          stock: product.stock,
          image: product.images[0] ?? product.slug,
          perishable: product.category === "nutrition",
        },
      };
    }
    const combo = comboById.get(row.itemId);
    const comboMembers = combo?.productSlugs.map((slug) => memberBySlug.get(slug)) ?? [];
    if (!combo?.active || comboMembers.some((member) => !member?.active)) return { ...base, current: null };
    return {
      ...base,
      addedPricePaise: row.addedPricePaise ?? combo.salePricePaise,
      current: {
        name: combo.title,
        unitPricePaise: combo.salePricePaise,
        stock: combo.stock,
        image: combo.image,
        perishable: comboMembers.some((member) => member?.category === "nutrition"),
      },
    };
  });

  const discount = discountCode ? await loadDiscountFor(db, buyer, discountCode) : null;
  return {
    pricing: priceOrder({ items, discount, shipping }),
    discountCode,
    usesPerCustomer: discount?.usesPerCustomer ?? null,
  };
}

/**
 * An applied code as it stands for this buyer now: its terms, its window and total limit, and whether the
 * buyer's own uses are spent. The cart (server/cart/cart.data.ts) and the order are priced with it alike.
 */
export async function loadDiscountFor(
  db: DbOrTx,
  buyer: Buyer,
  discountCode: string,
): Promise<PricingDiscount> {
  const [code] = await db.select().from(discountCodes).where(eq(discountCodes.code, discountCode));
  return {
    code: discountCode,
    percent: code?.percent ?? 0,
    amountOffPaise: code?.amountOffPaise ?? 0,
    unavailable: code ? codeUnavailable(code, new Date()) : null,
    description: code?.description ?? discountCode,
    minAmountPaise: code?.minAmountPaise ?? 0,
    active: code?.active ?? false,
    usesPerCustomer: code ? code.usesPerCustomer : 1,
    spent: code ? await codeUsedUpBy(db, buyer, discountCode, code.usesPerCustomer) : false,
  };
}

/**
 * Whether the buyer has no use of the code left for this order. An account has one while a use taken when
 * the code was applied is not yet spent, or while it has taken fewer than the limit. A guest is known by
 * e-mail and by mobile (either at the limit is enough), and by the account that has the e-mail, so a code
 * used signed in is not used again by signing out. The order's transaction decides for good
 * (takeCustomerUse); this is the early word, shown at checkout.
 */
async function codeUsedUpBy(db: DbOrTx, buyer: Buyer, code: string, limit: number | null): Promise<boolean> {
  if (limit === null) return false;
  if (buyer.kind === "account") {
    const [uses] = await db
      .select({
        taken: sql<number>`count(*)::int`,
        pending: sql<number>`count(*) filter (where ${discountUses.orderId} is null)::int`,
      })
      .from(discountUses)
      .where(and(eq(discountUses.userId, buyer.userId), eq(discountUses.code, code)));
    return (uses?.pending ?? 0) === 0 && (uses?.taken ?? 0) >= limit;
  }
  // The guest checkout page prices the cart before the shopper has given either.
  if (!buyer.email && !buyer.mobile) return false;
  const [asGuest] = await db
    .select({ most: sql<number>`coalesce(max(${guestDiscountUses.useNumber}), 0)::int` })
    .from(guestDiscountUses)
    .where(and(eq(guestDiscountUses.code, code), inArray(guestDiscountUses.contact, guestContacts(buyer))));
  if ((asGuest?.most ?? 0) >= limit) return true;
  const [asAccount] = await db
    .select({ spent: sql<number>`count(*)::int` })
    .from(discountUses)
    .innerJoin(users, eq(users.id, discountUses.userId))
    .where(
      and(
        eq(discountUses.code, code),
        isNotNull(discountUses.orderId),
        sql`lower(${users.email}) = ${buyer.email}`,
      ),
    );
  return (asAccount?.spent ?? 0) >= limit;
}
