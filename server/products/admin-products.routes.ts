import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { SessionUser } from "../../common/account.ts";
import {
  adminProductListQuerySchema,
  createProductSchema,
  MAX_IMAGE_BYTES,
  productParamSchema,
  updateProductSchema,
  uploadProductImageSchema,
} from "../../common/schemas/admin-products.ts";
import { ownerOnly } from "../auth/session.ts";
import type { Deps } from "../deps.ts";
import { notFound } from "../errors.ts";
import { validate } from "../validate.ts";
import { createProduct, getAdminProduct, listAdminProducts, updateProduct } from "./admin-products.data.ts";
import { imageTooLarge, storeProductImage } from "./product-images.ts";

/** A 10 MB photo in base64 (four characters per three bytes) with room for the JSON around it. */
export const PRODUCT_IMAGE_BODY_LIMIT = Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 1024;

/** A router behind the owner's guard, run before anything sent is read: 401 signed out, 403 for staff and customers. */
function ownerRouter(deps: Deps) {
  return new Hono<{ Variables: { owner: SessionUser } }>().use(ownerOnly(deps));
}

/**
 * The owner's catalogue: list and search, open, create and edit products. Products are hidden, never
 * deleted (orders, reviews and questions name them).
 */
export function adminProductRoutes(deps: Deps) {
  const { db } = deps;
  return ownerRouter(deps)
    .get("/", validate("query", adminProductListQuerySchema), async (c) =>
      c.json(await listAdminProducts(db, c.req.valid("query").q || undefined)),
    )
    .post("/", validate("json", createProductSchema), async (c) =>
      c.json(await createProduct(db, c.req.valid("json"), c.get("owner")), 201),
    )
    .get("/:slug", validate("param", productParamSchema), async (c) => {
      const product = await getAdminProduct(db, c.req.valid("param").slug);
      if (!product) throw notFound("No such product.");
      return c.json(product);
    })
    .put(
      "/:slug",
      validate("param", productParamSchema),
      validate("json", updateProductSchema),
      async (c) => {
        const product = await updateProduct(
          db,
          c.req.valid("param").slug,
          c.req.valid("json"),
          c.get("owner"),
        );
        if (!product) throw notFound("No such product.");
        return c.json(product);
      },
    );
}

/**
 * Uploads a product photo (JSON: its bytes in base64) and answers its key and addresses. The shop's body
 * limit leaves this path to the route (server/request-guards.ts): the owner check comes first and reads
 * only headers, so a stranger's or a customer's body is refused unread, whatever its size or encoding.
 */
export function adminProductImageRoutes(deps: Deps) {
  const photoLimit = bodyLimit({
    maxSize: PRODUCT_IMAGE_BODY_LIMIT,
    onError: () => {
      throw imageTooLarge();
    },
  });
  return ownerRouter(deps).post("/", photoLimit, validate("json", uploadProductImageSchema), async (c) => {
    const { image, purpose } = c.req.valid("json");
    // Checked before decoding, so an oversized file is refused without holding its bytes twice.
    if (Math.floor((image.length * 3) / 4) - (image.match(/=+$/)?.[0].length ?? 0) > MAX_IMAGE_BYTES) {
      throw imageTooLarge();
    }
    return c.json(
      await storeProductImage(deps.db, Buffer.from(image, "base64"), c.get("owner"), purpose),
      201,
    );
  });
}
