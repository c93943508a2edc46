import { and, asc, eq, inArray } from "drizzle-orm";
import { codeUnavailable } from "../../common/discount.ts";
import { type OrderPricing, type PricingItem, priceOrder } from "../../common/order-pricing.ts";
import type { Db } from "../db/client.ts";
import { cartItems, carts, combos, discountCodes, discountUses, products } from "../db/schema.ts";
import type { Env } from "../env.ts";

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | Tx;

export type CartForOrder = {
  pricing: OrderPricing;
  /** The cart's applied code, as stored (whether or not it can still be used). */
  discountCode: string | null;
};

/**
 * The signed-in shopper's cart priced for an order: current prices, stock and the applied code.
 * With `lock`, inside the order transaction, it holds row locks on the cart, the products and combos it
 * takes stock from (in a fixed order, so concurrent orders queue instead of deadlocking) and the discount
 * use, so nothing it decided on can change before the order commits.
 *
 * This is the one place an order is priced; the cart's own pricing can replace the loading half.
 */
export async function loadCartForOrder(
  db: Executor,
  env: Env,
  userId: string,
  { lock }: { lock: boolean },
): Promise<CartForOrder> {
  const cartQuery = db
    .select({ discountCode: carts.discountCode })
    .from(carts)
    .where(eq(carts.userId, userId));
  const [cart] = lock ? await cartQuery.for("update") : await cartQuery;
  const shipping = {
    freeShippingMinPaise: env.FREE_SHIPPING_MIN_PAISE,
    shippingFeePaise: env.SHIPPING_FEE_PAISE,
  };
  if (!cart) return { pricing: priceOrder({ items: [], discount: null, shipping }), discountCode: null };

  const rows = await db
    .select()
    .from(cartItems)
    .where(eq(cartItems.userId, userId))
    .orderBy(asc(cartItems.createdAt), asc(cartItems.itemId));
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
  const productRows = productSlugs.length ? await (lock ? productQuery.for("update") : productQuery) : [];
  const comboRows = comboIds.length ? await (lock ? comboQuery.for("update") : comboQuery) : [];

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
      addedPricePaise: row.addedPricePaise,
    };
    if (row.kind === "product") {
      const product = productBySlug.get(row.itemId);
      if (!product?.active) return { ...base, current: null };
      return {
        ...base,
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
      current: {
        name: combo.title,
        unitPricePaise: combo.salePricePaise,
        stock: combo.stock,
        image: combo.image,
        perishable: comboMembers.some((member) => member?.category === "nutrition"),
      },
    };
  });

  let discount: Parameters<typeof priceOrder>[0]["discount"] = null;
  if (cart.discountCode) {
    const [code] = await db.select().from(discountCodes).where(eq(discountCodes.code, cart.discountCode));
    const useQuery = db
      .select({ orderId: discountUses.orderId })
      .from(discountUses)
      .where(and(eq(discountUses.userId, userId), eq(discountUses.code, cart.discountCode)));
    const [use] = lock ? await useQuery.for("update") : await useQuery;
    discount = {
      code: cart.discountCode,
      percent: code?.percent ?? 0,
      amountOffPaise: code?.amountOffPaise ?? 0,
      unavailable: code ? codeUnavailable(code, new Date()) : null,
      description: code?.description ?? cart.discountCode,
      minAmountPaise: code?.minAmountPaise ?? 0,
      active: code?.active ?? false,
      spent: Boolean(use?.orderId),
    };
  }

  return { pricing: priceOrder({ items, discount, shipping }), discountCode: cart.discountCode };
}
