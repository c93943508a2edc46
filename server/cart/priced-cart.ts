import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { z } from "zod";
import {
  availabilityOf,
  CART_ITEM_KINDS,
  type CartEntry,
  type CartPricingInput,
  type PricedCart,
  type ResolvedLine,
  type ShippingRule,
  summarizeCart,
} from "../../common/cart.ts";
import { imageFor } from "../../common/catalogue.ts";
import {
  type CodeStanding,
  codeUnavailable,
  discountProblemOf,
  normalizeCode,
  type PricedCode,
} from "../../common/discount.ts";
import type { DbOrTx } from "../db/client.ts";
import { fromTemplate } from "../db/message-transaction.ts";
import {
  build,
  noRead,
  type Read,
  readAs,
  readNow,
  rowsRead,
  selectedRowSchema,
  together,
} from "../db/reads.ts";
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

/**
 * Who is ordering. A signed-in shopper's cart is the saved one; a guest's lives in the browser and comes
 * with the request, with the e-mail and mobile the code's uses per customer are counted by (empty until
 * the guest has given them).
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

/**
 * A guest's cart before the order: the uses of the code are counted for the e-mail and mobile given so far
 * (none in the cart, where they are not known yet).
 */
export const guestCart = (
  items: readonly CartEntry[],
  discountCode?: string | null,
  contact: { email?: string; mobile?: string } = {},
): Buyer => ({
  kind: "guest",
  email: contact.email ?? "",
  mobile: contact.mobile ?? "",
  items,
  discountCode: discountCode ?? null,
});

/** What a guest's one use of a code is recorded under (guest_discount_uses.contact). */
export const guestContacts = (buyer: { email: string; mobile: string }) => [
  `email:${buyer.email}`,
  `mobile:${buyer.mobile}`,
];

export type LoadedCart = {
  cart: PricedCart;
  /** The same lines and code priced for another way of paying (checkout shows both), without reading again. */
  pricedFor: (payment: CartPricingInput["payment"]) => PricedCart;
  /** The cart's applied code, as stored (whether or not it can still be used). */
  discountCode: string | null;
  /** That code's uses per customer (null: no limit). */
  usesPerCustomer: number | null;
};

type StoredLine = CartEntry & { addedPricePaise: number | null };

/**
 * The one loader of a priced cart, for the cart, the checkout page and Place order: a guest's lines or an
 * account's saved cart at today's prices and stock, with the applied code as it stands for this buyer,
 * priced by common/cart.ts summarizeCart (with the way of paying and the owner's prepaid incentive, when given).
 * With `lock`, inside the order transaction, it holds the row lock on the cart, so nothing it decided on can
 * change before the order commits. Products and combos are read without a lock: the order takes their stock
 * last, by one conditional UPDATE each (place-order.ts takeStock), so a product everyone wants is locked only
 * from that update to the commit, not for the whole order (docs/decisions/069).
 */
export async function loadPricedCart(
  db: DbOrTx,
  buyer: Buyer,
  {
    lock = false,
    shipping = null,
    payment = null,
  }: { lock?: boolean; shipping?: ShippingRule | null; payment?: CartPricingInput["payment"] } = {},
): Promise<LoadedCart> {
  return priceStoredCart(db, buyer, await readStoredCart(db, buyer, lock), { shipping, payment });
}

/**
 * A cart priced as loadPricedCart prices it, from lines already read (Place order reads them first, with the
 * lock, and may refuse before pricing them).
 */
export async function priceStoredCart(
  db: DbOrTx,
  buyer: Buyer,
  stored: StoredCart,
  {
    shipping = null,
    payment = null,
    resolved,
  }: {
    shipping?: ShippingRule | null;
    payment?: CartPricingInput["payment"];
    /** The lines already resolved (placeOrder reads them with other statements); else they are read. */
    resolved?: ResolvedLine[];
  },
): Promise<LoadedCart> {
  const lines = resolved ?? (await resolveLines(db, stored.lines));
  const standing = stored.discountCode ? await loadDiscountFor(db, buyer, stored.discountCode) : null;
  const pricedFor = (choice: CartPricingInput["payment"]) =>
    summarizeCart({ lines, discount: standing, version: stored.version, shipping, payment: choice });
  return {
    cart: pricedFor(payment),
    pricedFor,
    discountCode: stored.discountCode,
    usesPerCustomer: standing?.usesPerCustomer ?? null,
  };
}

/** A cart as stored: its lines and applied code, with the version that moves on every change. */
export type StoredCart = { version: number; discountCode: string | null; lines: StoredLine[] };

const EMPTY_CART: StoredCart = { version: 0, discountCode: null, lines: [] };

/** The buyer's lines and applied code as stored (an account's, with the cart's row lock when `lock`). */
export async function readStoredCart(db: DbOrTx, buyer: Buyer, lock: boolean): Promise<StoredCart> {
  if (buyer.kind === "guest") {
    return {
      version: 0,
      discountCode: buyer.discountCode ? normalizeCode(buyer.discountCode) : null,
      // A guest's cart records no price from when it was added.
      lines: buyer.items.map((entry) => ({ ...entry, addedPricePaise: null })),
    };
  }
  return readNow(db, savedCartRead(buyer.userId, lock));
}

const user$ = sql.placeholder("userId");
const cartColumns = { version: carts.version, discountCode: carts.discountCode };
const cartRow = selectedRowSchema(cartColumns, {
  version: z.number().int(),
  discountCode: z.string().nullable(),
});
const lineColumns = {
  id: cartItems.itemId,
  kind: cartItems.kind,
  quantity: cartItems.quantity,
  addedPricePaise: cartItems.addedPricePaise,
};
const lineRow = selectedRowSchema(lineColumns, {
  id: z.string(),
  kind: z.enum(CART_ITEM_KINDS),
  quantity: z.number().int(),
  addedPricePaise: z.number().int(),
});

/**
 * An account's saved cart: the cart row (locked for the order when `lock`, so nothing priced from it changes
 * before the order commits) and its lines in the order they were added.
 */
export function savedCartRead(userId: string, lock: boolean): Read<StoredCart> {
  const cart = () => build.select(cartColumns).from(carts).where(eq(carts.userId, user$));
  const parts = together({
    cart: rowsRead(
      lock
        ? fromTemplate("locked cart", () => cart().for("update"), { userId })
        : fromTemplate("cart", cart, { userId }),
      cartRow,
    ),
    lines: rowsRead(
      fromTemplate(
        "cart lines",
        () =>
          build
            .select(lineColumns)
            .from(cartItems)
            .where(eq(cartItems.userId, user$))
            .orderBy(asc(cartItems.createdAt), asc(cartItems.itemId)),
        { userId },
      ),
      lineRow,
    ),
  });
  return readAs(parts, ({ cart: [row], lines }) => (row ? { ...row, lines } : EMPTY_CART));
}

/**
 * What the catalogue says now about each line: name, picture, current price, stock and whether it is sold.
 * Inactive and unknown items are kept (marked), never dropped silently.
 */
export function resolveLines(db: DbOrTx, lines: readonly StoredLine[]): Promise<ResolvedLine[]> {
  return readNow(db, catalogueRead(lines));
}

/**
 * resolveLines' read: the lines' products, their combos, and the products in those combos (some read twice
 * when a line is also a member; the line's own row stands, as alike).
 */
export function catalogueRead(lines: readonly StoredLine[]): Read<ResolvedLine[]> {
  const slugs = lines.filter((line) => line.kind === "product").map((line) => line.id);
  const ids = lines.filter((line) => line.kind === "combo").map((line) => line.id);
  const [slugs$, ids$] = [sql.placeholder("slugs"), sql.placeholder("ids")];
  const parts = together({
    products: slugs.length
      ? rowsRead(
          fromTemplate(
            "cart products",
            () => build.select(productColumns).from(products).where(sql`${products.slug} = any(${slugs$})`),
            { slugs },
          ),
          productRow,
        )
      : noRead([]),
    combos: ids.length
      ? rowsRead(
          fromTemplate(
            "cart combos",
            () => build.select(comboColumns).from(combos).where(sql`${combos.id} = any(${ids$})`),
            { ids },
          ),
          comboRow,
        )
      : noRead([]),
    members: ids.length
      ? rowsRead(
          fromTemplate(
            "cart combo members",
            () =>
              build
                .select(productColumns)
                .from(products)
                .where(
                  sql`${products.slug} in (select jsonb_array_elements_text(${combos.productSlugs}) from ${combos} where ${combos.id} = any(${ids$}))`,
                ),
            { ids },
          ),
          productRow,
        )
      : noRead([]),
  });
  return readAs(parts, (rows) => resolvedLinesOf(lines, [...rows.members, ...rows.products], rows.combos));
}

function resolvedLinesOf(
  lines: readonly StoredLine[],
  productRows: readonly ProductRow[],
  comboRows: readonly ComboRow[],
): ResolvedLine[] {
  const productsBySlug = new Map(productRows.map((row) => [row.slug, row]));
  const combosById = new Map(comboRows.map((row) => [row.id, row]));

  return lines.map((line): ResolvedLine => {
    if (line.kind === "product") {
      const row = productsBySlug.get(line.id);
      if (!row) return unknownLine(line);
      const imageKey = row.images[0] ?? row.slug;
      return {
        ...line,
        name: row.name,
        href: `/product/${row.slug}`,
        image: imageFor(imageKey),
        imageKey,
        unitPricePaise: row.pricePaise,
        availability: availabilityOf(row.active, row.stock, line.quantity),
        stock: row.stock,
        perishable: isPerishable(row.category),
      };
    }
    const row = combosById.get(line.id);
    if (!row) return unknownLine(line);
    const members = row.productSlugs.map((slug) => productsBySlug.get(slug));
    // A combo is sold only while every product in it is; perishable when any of them is a food.
    const membersSold = members.every((member) => member?.active === true);
    return {
      ...line,
      name: row.title,
      href: `/combo/${row.id}`,
      image: imageFor(row.image),
      imageKey: row.image,
      unitPricePaise: row.salePricePaise,
      availability: availabilityOf(row.active && membersSold, row.stock, line.quantity),
      stock: row.stock,
      perishable: members.some((member) => member !== undefined && isPerishable(member.category)),
    };
  });
}

const comboColumns = {
  id: combos.id,
  title: combos.title,
  salePricePaise: combos.salePricePaise,
  image: combos.image,
  stock: combos.stock,
  active: combos.active,
  productSlugs: combos.productSlugs,
};
const comboRow = selectedRowSchema(comboColumns, {
  id: z.string(),
  title: z.string(),
  salePricePaise: z.number().int(),
  image: z.string(),
  stock: z.number().int(),
  active: z.boolean(),
  productSlugs: z.array(z.string()),
});
type ComboRow = z.output<typeof comboRow>;

const productColumns = {
  slug: products.slug,
  name: products.name,
  pricePaise: products.pricePaise,
  images: products.images,
  stock: products.stock,
  active: products.active,
  category: products.category,
};
const productRow = selectedRowSchema(productColumns, {
  slug: z.string(),
  name: z.string(),
  pricePaise: z.number().int(),
  images: z.array(z.string()),
  stock: z.number().int(),
  active: z.boolean(),
  category: z.string(),
});
type ProductRow = z.output<typeof productRow>;

const isPerishable = (category: string) => category === "nutrition";

function unknownLine(line: StoredLine): ResolvedLine {
  return {
    ...line,
    name: line.id
      .split("-")
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(" "),
    href: line.kind === "product" ? `/product/${line.id}` : `/combo/${line.id}`,
    image: null,
    imageKey: null,
    unitPricePaise: null,
    availability: "not_sold",
    stock: 0,
    perishable: false,
  };
}

/**
 * An applied code as it stands for this buyer now: its terms, and why it takes nothing off (switched off,
 * outside its window or total limit, the buyer's own uses spent), in the words Place order refuses it with.
 */
export async function loadDiscountFor(
  db: DbOrTx,
  buyer: Buyer,
  discountCode: string,
): Promise<PricedCode & { usesPerCustomer: number | null }> {
  const [code] = await db.select().from(discountCodes).where(eq(discountCodes.code, discountCode));
  const standing: CodeStanding = {
    active: (code?.active ?? false) && (await mayUseReserved(db, buyer, code?.reservedFor ?? null)),
    unavailable: code ? codeUnavailable(code, new Date()) : null,
    spent: code ? await codeUsedUpBy(db, buyer, discountCode, code.usesPerCustomer) : false,
    usesPerCustomer: code ? code.usesPerCustomer : 1,
  };
  return {
    code: discountCode,
    percent: code?.percent ?? 0,
    amountOffPaise: code?.amountOffPaise ?? 0,
    description: code?.description ?? discountCode,
    minAmountPaise: code?.minAmountPaise ?? 0,
    active: standing.active,
    usesPerCustomer: standing.usesPerCustomer,
    problem: discountProblemOf(standing),
  };
}

/**
 * A code kept for one shopper (a cart reminder's, docs/decisions/089) is that shopper's alone: an account
 * with that e-mail, or a guest ordering with it. A guest who has not typed an e-mail yet is not refused: the
 * order cannot be placed without one, and is priced again with it.
 */
export async function mayUseReserved(db: DbOrTx, buyer: Buyer, reservedFor: string | null): Promise<boolean> {
  if (reservedFor === null) return true;
  if (buyer.kind === "guest") return !buyer.email || buyer.email.toLowerCase() === reservedFor;
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, buyer.userId));
  return user?.email.toLowerCase() === reservedFor;
}

/**
 * Whether the buyer has no use of the code left for this order. An account has one while a use taken when
 * the code was applied is not yet spent, or while it has taken fewer than the limit. A guest is known by
 * e-mail and by mobile (either at the limit is enough), and by the account that has the e-mail, so a code
 * used signed in is not used again by signing out. The order's transaction decides for good
 * (takeCustomerUse); this is the early word, shown in the cart and at checkout.
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
