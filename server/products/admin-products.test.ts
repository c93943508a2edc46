import { and, count, eq } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { CartLine } from "../../common/cart.ts";
import type { Product, ProductPage } from "../../common/catalogue.ts";
import type { AdminProduct, AdminProductList } from "../../common/schemas/admin-products.ts";
import { signUpViaApp, signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { apiCaller, callApi, jsonRequest, setUpTestApp } from "../../tests/database.ts";
import { putInCart } from "../../tests/orders.ts";
import { auditLog, cartItems, productImageFiles, products, questions } from "../db/schema.ts";
import { seedCatalogue } from "../db/seed/seed.ts";

const shop = setUpTestApp();
let owner: TestAccount;
let staff: TestAccount;
let customer: TestAccount;
let accounts = 0;

beforeAll(async () => {
  owner = await signUpWithRole(shop, "products-owner@example.in", "owner");
  staff = await signUpWithRole(shop, "products-staff@example.in", "staff");
  customer = await signUpViaApp(shop.app, "products-customer@example.in");
});

const api = apiCaller(shop, () => owner);

/** A photo as a camera or phone would give it: not square, so the crop is exercised too. */
const photo = (format: "jpeg" | "png" | "webp" = "jpeg", width = 1200, height = 900) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 60 } } })
    .toFormat(format)
    .toBuffer();

async function upload(bytes: Buffer, as: TestAccount | null = owner) {
  return api("POST", "/admin/product-images", { image: bytes.toString("base64") }, as);
}

async function uploadedKey(seed: number) {
  const bytes = await sharp({
    create: { width: 640, height: 480, channels: 3, background: { r: seed % 256, g: 90, b: 40 } },
  })
    .png()
    .toBuffer();
  const { status, body } = await upload(bytes);
  expect(status).toBe(201);
  return body.key as string;
}

let made = 0;
async function newProductBody(overrides: Record<string, unknown> = {}) {
  made += 1;
  return {
    name: `Neem Hair Rinse ${made}`,
    slug: `neem-hair-rinse-${made}`,
    pricePaise: 39900,
    originalPricePaise: 44900,
    description: "A cooling neem and shikakai rinse for an itchy scalp.",
    benefits: ["Calms the scalp", "Softens hair", "No sulphates"],
    category: "haircare",
    subcategory: "Hair Pack",
    badge: "New Launch",
    menus: ["haircare"],
    images: [{ key: await uploadedKey(made), alt: "A jar of green neem powder" }],
    active: true,
    ...overrides,
  };
}

async function productCount() {
  const [row] = await shop.db.select({ n: count() }).from(products);
  return row?.n ?? 0;
}

/** The public catalogue hears of a change through NOTIFY a few milliseconds after the commit. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const until = Date.now() + 3000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const publicProducts = async () =>
  (await callApi(shop.app, "GET", "/api/products?pageSize=100")).body as ProductPage;

describe("who may edit the catalogue", () => {
  it("answers 401 signed out and 403 to staff and customers on every route, and writes nothing", async () => {
    const before = await productCount();
    const body = await newProductBody();
    const attempts: [string, string, unknown?][] = [
      ["GET", "/admin/products"],
      ["GET", "/admin/products/bath-powder"],
      ["POST", "/admin/products", body],
      ["PUT", "/admin/products/bath-powder", { ...body, slug: "bath-powder", version: 1 }],
      ["POST", "/admin/product-images", { image: (await photo()).toString("base64") }],
    ];
    for (const [method, path, sent] of attempts) {
      expect((await api(method, path, sent, null)).status, `${method} ${path}`).toBe(401);
      for (const who of [staff, customer]) {
        const answer = await api(method, path, sent, who);
        expect(answer.status, `${method} ${path} as ${who.email}`).toBe(403);
        expect(answer.body.error.code).toBe("forbidden");
      }
    }
    expect(await productCount()).toBe(before);
    const [bath] = await shop.db.select().from(products).where(eq(products.slug, "bath-powder"));
    expect(bath?.version).toBe(1);
  });
});

describe("the list", () => {
  it("lists every product with its status, price and stock, and searches by name in any case", async () => {
    await shop.db.update(products).set({ active: false }).where(eq(products.slug, "coconut-oil"));
    const all = (await api("GET", "/admin/products")).body as AdminProductList;
    expect(all.items.length).toBe(await productCount());
    const coconut = all.items.find((item) => item.slug === "coconut-oil");
    expect(coconut).toMatchObject({ name: "Coconut Oil", active: false, pricePaise: 35000 });
    expect(typeof coconut?.stock).toBe("number");

    const oils = (await api("GET", "/admin/products?q=OIL")).body as AdminProductList;
    expect(oils.items.map((item) => item.name)).toEqual(
      expect.arrayContaining(["Coconut Oil", "Face Glow Oil", "Hair Growth Oil"]),
    );
    expect(oils.items.every((item) => item.name.toLowerCase().includes("oil"))).toBe(true);
    // LIKE's wildcards are what they are: nothing is named with a percent sign.
    expect(((await api("GET", "/admin/products?q=%25")).body as AdminProductList).items).toEqual([]);
    await shop.db.update(products).set({ active: true }).where(eq(products.slug, "coconut-oil"));
  });
});

describe("creating a product", () => {
  it("stores everything the editor sends, shows it in the shop at once, and records it", async () => {
    const catalogue = await publicProducts(); // remembered by the cache, to be forgotten on the insert
    const body = await newProductBody({ menus: ["haircare", "bestsellers"] });
    const { status, body: created } = await api("POST", "/admin/products", body);
    expect(status).toBe(201);
    expect(created).toMatchObject({
      slug: body.slug,
      name: body.name,
      pricePaise: 39900,
      originalPricePaise: 44900,
      badge: "New Launch",
      menus: ["haircare", "bestsellers"],
      active: true,
      stock: 0,
      version: 1,
      ordered: false,
    });
    const key = (body.images as { key: string }[])[0]?.key;
    expect((created as AdminProduct).images[0]).toMatchObject({
      key,
      alt: "A jar of green neem powder",
      small: `/images/${key}-400.webp`,
      large: `/images/${key}-800.webp`,
    });

    const after = await eventually(publicProducts, (page) => page.total === catalogue.total + 1);
    const shown = after.items.find((item) => item.slug === body.slug) as Product;
    expect(shown.images[0]?.alt).toBe("A jar of green neem powder");
    expect(shown.inStock).toBe(false);
    const one = await callApi(shop.app, "GET", `/api/products/${body.slug}`);
    expect(one.status).toBe(200);

    const [entry] = await shop.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "product"), eq(auditLog.entityId, String(body.slug))));
    expect(entry).toMatchObject({ action: "create", actorEmail: owner.email });
  });

  it("refuses bad input with a 400 naming the field, and writes nothing", async () => {
    const good = await newProductBody();
    const cases: [string, Record<string, unknown>][] = [
      ["pricePaise", { pricePaise: -100 }],
      ["pricePaise", { pricePaise: 399.5 }],
      ["pricePaise", { pricePaise: 0 }],
      ["pricePaise", { pricePaise: "399" }],
      ["originalPricePaise", { originalPricePaise: 30000 }],
      ["slug", { slug: "bath-powder" }],
      ["slug", { slug: "Not A Slug" }],
      ["name", { name: "   " }],
      ["name", { name: "bath powder" }],
      ["description", { description: "" }],
      ["benefits", { benefits: ["Only", "two"] }],
      ["benefits.2", { benefits: ["One", "Two", ""] }],
      ["category", { category: "toys" }],
      ["subcategory", { subcategory: "Face Pack" }],
      ["badge", { badge: "Hot" }],
      ["menus.0", { menus: ["toys"] }],
      ["images", { images: [] }],
      [
        "images",
        {
          images: [1, 2, 3, 4].map((n) => ({ key: `uploads/${String(n).repeat(32)}`, alt: "" })),
        },
      ],
      ["images", { images: [{ key: "natural-hair-dye-1", alt: "" }] }],
      ["images", { images: [{ key: `uploads/${"a".repeat(32)}`, alt: "" }] }],
      ["stock", { stock: 50 }],
      ["rating", { rating: 5 }],
    ];
    const before = await productCount();
    for (const [field, change] of cases) {
      const { status, body } = await api("POST", "/admin/products", { ...good, ...change });
      expect(status, JSON.stringify(change)).toBe(400);
      expect(body.error.code).toBe("invalid_request");
      expect(Object.keys(body.error.fields ?? {}), JSON.stringify(change)).toContain(field);
    }
    expect(await productCount()).toBe(before);
    const [entries] = await shop.db
      .select({ n: count() })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "product"), eq(auditLog.entityId, String(good.slug))));
    expect(entries?.n).toBe(0);
  });
});

describe("uploading photos", () => {
  it("takes JPEG, PNG and WebP by their content and makes the shop's sizes, served for good by hash", async () => {
    for (const format of ["jpeg", "png", "webp"] as const) {
      const { status, body } = await upload(await photo(format, 1000 + format.length, 700));
      expect(status, format).toBe(201);
      expect(body.key).toMatch(/^uploads\/[0-9a-f]{32}$/);
      for (const [address, size] of [
        [body.small, 400],
        [body.large, 800],
      ] as const) {
        const response = await shop.app.request(address);
        expect(response.status).toBe(200);
        expect(response.headers.get("Content-Type")).toBe("image/webp");
        expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
        const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual(["webp", size, size]);
      }
      const preview = await shop.app.request(`/images/${body.key}.jpg`);
      expect(preview.headers.get("Content-Type")).toBe("image/jpeg");
      const meta = await sharp(Buffer.from(await preview.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([1200, 630]);
    }
    // The same photo again is the same key and one row.
    const again = await photo("jpeg", 1004, 700);
    const first = await upload(again);
    const second = await upload(again);
    expect(second.body.key).toBe(first.body.key);
    const [rows] = await shop.db
      .select({ n: count() })
      .from(productImageFiles)
      .where(eq(productImageFiles.id, String(first.body.key).slice("uploads/".length)));
    expect(rows?.n).toBe(1);
    expect((await shop.app.request(`/images/uploads/${"0".repeat(32)}-400.webp`)).status).toBe(404);
  });

  it("refuses what is not a JPEG, PNG or WebP, whatever it is called, with a 400 naming the field", async () => {
    const [before] = await shop.db.select({ n: count() }).from(productImageFiles);
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#fff" } })
      .gif()
      .toBuffer();
    const png = await photo("png");
    const notImages = [
      Buffer.from("GIF89a? no: a text file renamed photo.jpg"),
      gif,
      Buffer.concat([png.subarray(0, 64), Buffer.alloc(200)]), // a PNG's header and nothing after
      Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"),
    ];
    for (const bytes of notImages) {
      const { status, body } = await upload(bytes);
      expect(status).toBe(400);
      expect(body.error.fields).toHaveProperty("image");
    }
    const { status, body } = await api("POST", "/admin/product-images", { image: "not base64!" });
    expect(status).toBe(400);
    expect(body.error.fields).toHaveProperty("image");
    const [after] = await shop.db.select({ n: count() }).from(productImageFiles);
    expect(after?.n).toBe(before?.n);
  });

  it("answers a 50 MB upload, and a photo just over 10 MB, with 413 in the error shape", async () => {
    const fifty = "A".repeat(50 * 1024 * 1024);
    const huge = await shop.app.request(
      "/api/admin/product-images",
      jsonRequest({ method: "POST", body: { image: fifty }, cookie: owner.cookie }),
    );
    expect(huge.status).toBe(413);
    expect((await huge.json()).error).toMatchObject({ code: "payload_too_large" });

    const justOver = Buffer.alloc(10 * 1024 * 1024 + 1, 7);
    const over = await upload(justOver);
    expect(over.status).toBe(413);
    expect(over.body.error.fields).toHaveProperty("image");
  });
});

describe("editing a product", () => {
  async function fresh(overrides: Record<string, unknown> = {}) {
    const body = await newProductBody(overrides);
    const { status, body: created } = await api("POST", "/admin/products", body);
    expect(status).toBe(201);
    return created as AdminProduct;
  }
  const edit = (product: AdminProduct, change: Record<string, unknown>, slug = product.slug) =>
    api("PUT", `/admin/products/${slug}`, {
      name: product.name,
      slug: product.slug,
      pricePaise: product.pricePaise,
      originalPricePaise: product.originalPricePaise,
      description: product.description,
      benefits: product.benefits,
      category: product.category,
      subcategory: product.subcategory,
      badge: product.badge,
      menus: product.menus,
      images: product.images.map(({ key, alt }) => ({ key, alt })),
      active: product.active,
      version: product.version,
      ...change,
    });

  it("keeps the bundled photos, reorders, adds and removes images with their alt text", async () => {
    const { body: dye } = await api("GET", "/admin/products/natural-hair-dye");
    const product = dye as AdminProduct;
    expect(product.images.map((image) => image.key)).toEqual([
      "natural-hair-dye-1",
      "natural-hair-dye-2",
      "natural-hair-dye-3",
    ]);
    const added = await uploadedKey(901);
    const { status, body } = await edit(product, {
      images: [
        { key: added, alt: "The dye mixed in a bowl" },
        { key: "natural-hair-dye-3", alt: "" },
        { key: "natural-hair-dye-1", alt: "The pack" },
      ],
    });
    expect(status).toBe(200);
    expect((body as AdminProduct).images.map((image) => [image.key, image.alt])).toEqual([
      [added, "The dye mixed in a bowl"],
      ["natural-hair-dye-3", ""],
      ["natural-hair-dye-1", "The pack"],
    ]);
    expect((body as AdminProduct).version).toBe(product.version + 1);
    const shown = await eventually(
      async () => (await callApi(shop.app, "GET", "/api/products/natural-hair-dye")).body as Product,
      (value) => value.image.small.includes(added),
    );
    expect(shown.images.map((image) => image.alt)).toEqual([
      "The dye mixed in a bowl",
      undefined,
      "The pack",
    ]);
  });

  it("of two saves made from the same version at the same moment, takes one and answers the other 409", async () => {
    for (let round = 0; round < 5; round += 1) {
      const product = await fresh();
      const saves = await Promise.all(
        [41000, 42000, 43000, 44000].map((pricePaise) =>
          edit(product, { pricePaise, originalPricePaise: null }),
        ),
      );
      const statuses = saves.map((save) => save.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409]);
      const refused = saves.find((save) => save.status === 409);
      expect(refused?.body.error).toMatchObject({ code: "product_changed" });
      expect(refused?.body.error.message).toMatch(/Someone else changed this product/);
      const winner = saves.find((save) => save.status === 200)?.body as AdminProduct;
      const [row] = await shop.db.select().from(products).where(eq(products.slug, product.slug));
      expect([row?.pricePaise, row?.version]).toEqual([winner.pricePaise, 2]);
      const [entries] = await shop.db
        .select({ n: count() })
        .from(auditLog)
        .where(and(eq(auditLog.entityId, product.slug), eq(auditLog.action, "update")));
      expect(entries?.n).toBe(1);
    }
  });

  it("refuses bad changes naming the field, leaving the product as it was", async () => {
    const product = await fresh();
    for (const [field, change] of [
      ["pricePaise", { pricePaise: -1 }],
      ["pricePaise", { pricePaise: 12.5 }],
      ["originalPricePaise", { pricePaise: 50000, originalPricePaise: 49900 }],
      ["slug", { slug: "badam-mix" }],
      ["name", { name: "" }],
      ["version", { version: undefined }],
    ] as [string, Record<string, unknown>][]) {
      const { status, body } = await edit(product, change);
      expect(status, JSON.stringify(change)).toBe(400);
      expect(Object.keys(body.error.fields ?? {})).toContain(field);
    }
    const { body } = await api("GET", `/admin/products/${product.slug}`);
    expect(body).toMatchObject({ pricePaise: product.pricePaise, version: 1, name: product.name });
  });

  it("hides a product from the shop, its search and the sitemap, and marks it unavailable in carts", async () => {
    const product = await fresh({ menus: ["body"] });
    const shopper = await signUpViaApp(shop.app, `hide-shopper-${++accounts}@example.in`);
    await shop.db.update(products).set({ stock: 5 }).where(eq(products.slug, product.slug));
    await putInCart(shop.db, shopper.userId, [{ itemId: product.slug }]);
    const { status } = await edit(product, { active: false });
    expect(status).toBe(200);
    const search = await eventually(
      async () =>
        (await callApi(shop.app, "GET", `/api/products?q=${encodeURIComponent(product.name)}`))
          .body as ProductPage,
      (page) => page.total === 0,
    );
    expect(search.total).toBe(0);
    expect((await callApi(shop.app, "GET", `/api/products/${product.slug}`)).status).toBe(404);
    const sitemap = await (await shop.app.request("/sitemap.xml")).text();
    expect(sitemap).not.toContain(`/product/${product.slug}<`);
    const cart = await api("GET", "/cart", undefined, shopper);
    const line = (cart.body.lines as CartLine[]).find((each) => each.id === product.slug);
    expect(line?.availability).toBe("not_sold");
  });

  it("marks a changed price in a shopper's cart", async () => {
    const shopper = await signUpViaApp(shop.app, `price-shopper-${++accounts}@example.in`);
    await putInCart(shop.db, shopper.userId, [{ itemId: "wax-powder" }]);
    const { body: wax } = await api("GET", "/admin/products/wax-powder");
    const { status } = await edit(wax as AdminProduct, { pricePaise: 47900 });
    expect(status).toBe(200);
    const cart = await api("GET", "/cart", undefined, shopper);
    const line = (cart.body.lines as CartLine[]).find((each) => each.id === "wax-powder");
    expect(line).toMatchObject({ unitPricePaise: 47900, addedPricePaise: 44900, priceChanged: true });
  });

  it("moves a product to a new address and keeps the old one as a permanent redirect", async () => {
    const { body: opened } = await api("GET", "/admin/products/moringa-powder");
    const moringa = opened as AdminProduct;
    const shopper = await signUpViaApp(shop.app, `move-shopper-${++accounts}@example.in`);
    await putInCart(shop.db, shopper.userId, [{ itemId: "moringa-powder" }]);
    const [asked] = await shop.db
      .insert(questions)
      .values({ productSlug: "moringa-powder", body: "Is it organic?", userId: shopper.userId })
      .returning({ id: questions.id });

    const { status, body } = await edit(moringa, { slug: "moringa-leaf-powder" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ slug: "moringa-leaf-powder", version: moringa.version + 1 });

    const old = await shop.app.request("/api/products/moringa-powder");
    expect(old.status).toBe(308);
    expect(old.headers.get("Location")).toBe("/api/products/moringa-leaf-powder");
    const page = await shop.app.request("/product/moringa-powder?from=mail");
    expect(page.status).toBe(301);
    expect(page.headers.get("Location")).toBe("/product/moringa-leaf-powder?from=mail");
    const [question] = await shop.db
      .select()
      .from(questions)
      .where(eq(questions.id, String(asked?.id)));
    expect(question?.productSlug).toBe("moringa-leaf-powder");
    const [inCart] = await shop.db.select().from(cartItems).where(eq(cartItems.userId, shopper.userId));
    expect(inCart?.itemId).toBe("moringa-leaf-powder");

    // Another product cannot take the old address while it still leads to Moringa.
    const taken = await api("POST", "/admin/products", await newProductBody({ slug: "moringa-powder" }));
    expect(taken.status).toBe(400);
    expect(taken.body.error.fields.slug).toMatch(/Moringa Powder/);

    // Moving back makes the first address the product's own again, and the second one a redirect.
    const back = await edit(body as AdminProduct, { slug: "moringa-powder" }, "moringa-leaf-powder");
    expect(back.status).toBe(200);
    const leaf = await eventually(
      async () => shop.app.request("/api/products/moringa-leaf-powder"),
      (response) => response.status === 308,
    );
    expect(leaf.status).toBe(308);
    expect((await callApi(shop.app, "GET", "/api/products/moringa-powder")).status).toBe(200);
  });

  it("is not brought back under its old address and name by the seed at the next start", async () => {
    const { body: opened } = await api("GET", "/admin/products/curry-leaves-powder");
    const moved = await edit(opened as AdminProduct, {
      slug: "curry-leaf-powder",
      name: "Curry Leaf Powder",
    });
    expect(moved.status).toBe(200);
    await seedCatalogue(shop.db);
    const rows = await shop.db.select({ slug: products.slug }).from(products);
    expect(rows.map((row) => row.slug)).not.toContain("curry-leaves-powder");
    expect(rows.map((row) => row.slug)).toContain("curry-leaf-powder");
  });
});
