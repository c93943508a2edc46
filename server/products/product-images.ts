import { createHash } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { Hono } from "hono";
import { imageFor } from "../../common/catalogue.ts";
import { MAX_IMAGE_BYTES, type UploadedProductImage } from "../../common/schemas/admin-products.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db, Tx } from "../db/client.ts";
import { productImageFiles } from "../db/schema.ts";
import { httpError, notFound, tooManyRequests } from "../errors.ts";
import { onFirstUse } from "../first-use.ts";
import { enqueueJob } from "../jobs/job-queue.ts";
import { log, serializeError } from "../log.ts";

/** Where photos are uploaded: the one API path with a body limit above the shop's usual one. */
export const PRODUCT_IMAGE_UPLOAD_PATH = "/api/admin/product-images";

/** The formats a photo may come in, as sharp reads them from the bytes (never the name or a header). */
const ACCEPTED_FORMATS = new Set(["jpeg", "png", "webp"]);
/**
 * A 50-megapixel phone's full-size photo (8,160 x 6,120) and no more: a larger one is refused from its header,
 * before it is decoded. At 10,000 x 10,000 px a single interlaced PNG took seconds of CPU per rendition.
 */
export const MAX_INPUT_PIXELS = 50_000_000;
/** Photos waiting behind the one being processed; more are told to come back (429). */
export const IMAGE_QUEUE_WAITING = 4;

/**
 * sharp and its libvips, loaded with the first photo rather than when the shop starts (a start that handles
 * no upload, most of them, does not pay for it). One libvips thread per operation: with the queue below,
 * photo processing holds one thread of libuv's pool (four by default) and one core, never all of them.
 * Password sign-in hashes with scrypt on that same pool, and four large uploads at once once made it wait 23 s.
 */
const loadSharp = onFirstUse(async () => {
  const { default: sharp } = await import("sharp");
  sharp.concurrency(1);
  return sharp;
});
const OG_WIDTH = 1200;
const OG_HEIGHT = 630;
const OG_BACKGROUND = { r: 250, g: 250, b: 249 }; // stone-50, as the build's previews of bundled images

const tooManyPixels = () =>
  httpError(413, "payload_too_large", "image: must be 50 megapixels or fewer", {
    image: "must be 50 megapixels or fewer",
  });

export const imageTooLarge = () =>
  httpError(413, "payload_too_large", "image: must be 10 MB or smaller", {
    image: "must be 10 MB or smaller",
  });

const notAnImage = () =>
  httpError(400, "invalid_request", "image: is not a JPEG, PNG or WebP image", {
    image: "is not a JPEG, PNG or WebP image",
  });

export type ImagePurpose = "photo" | "logo";

let processing = false;
const waiting: (() => void)[] = [];

/**
 * Runs photo work one at a time in this process, with at most IMAGE_QUEUE_WAITING waiting; past that, a 429
 * with Retry-After. Uploads are the owner's, a few at a time, so the queue costs them seconds; without it,
 * each took its share of the thread pool and the cores that sign-in and checkout need.
 */
export async function processInTurn<T>(work: () => Promise<T>): Promise<T> {
  if (processing) {
    if (waiting.length >= IMAGE_QUEUE_WAITING) {
      throw tooManyRequests(
        "images_busy",
        "Several photos are being processed. Upload this one again in a few seconds.",
        5,
      );
    }
    // Woken by the work before it, which hands its turn over without releasing it.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  processing = true;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else processing = false;
  }
}

/**
 * The photo's format, read from its header by sharp (never the name or a Content-Type), and refused when too
 * large to decode: cheap, so done before the photo waits its turn.
 */
async function checkPhoto(bytes: Buffer) {
  const sharp = await loadSharp();
  let format: string | undefined;
  let pixels = 0;
  try {
    const metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    format = metadata.format;
    pixels = (metadata.width ?? 0) * (metadata.height ?? 0);
  } catch {
    throw notAnImage();
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) throw notAnImage();
  if (pixels > MAX_INPUT_PIXELS) throw tooManyPixels();
}

/**
 * The shop's sizes of one photo: the 400 and 800 px squares every page's srcset offers (cropped to the
 * middle, turned upright by its EXIF orientation, metadata dropped) and the 1200 x 630 preview JPEG. The
 * upload is decoded once, to the 800 px square, and the rest are made from that, one after the other.
 */
async function renditions(bytes: Buffer, purpose: ImagePurpose) {
  const sharp = await loadSharp();
  try {
    const decoded = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).rotate();
    // A logo sits on the header's light or dark background: its transparency is kept (a white square would
    // show in dark mode) and it is fitted whole into the square rather than cropped.
    const square = await (purpose === "logo"
      ? decoded.ensureAlpha().resize(800, 800, { fit: "contain", background: { r: 0, g: 0, b: 0, alpha: 0 } })
      : decoded.resize(800, 800, { fit: "cover", position: "centre" }).flatten({ background: "#ffffff" })
    )
      .raw()
      .toBuffer({ resolveWithObject: true });
    const fromSquare = () => sharp(square.data, { raw: square.info });
    const large = await fromSquare().webp({ quality: 80 }).toBuffer();
    const small = await fromSquare().resize(400, 400).webp({ quality: 80 }).toBuffer();
    const picture = await sharp(large).resize(OG_HEIGHT, OG_HEIGHT).toBuffer();
    const og = await sharp({
      create: { width: OG_WIDTH, height: OG_HEIGHT, channels: 3, background: OG_BACKGROUND },
    })
      .composite([{ input: picture, left: (OG_WIDTH - OG_HEIGHT) / 2, top: 0 }])
      .jpeg({ quality: 82, mozjpeg: true })
      .toBuffer();
    return { small, large, og };
  } catch {
    // A file whose header reads as an image but whose data does not decode (truncated, corrupt).
    throw notAnImage();
  }
}

/**
 * Stores an uploaded photo's renditions under the hash of the upload: the same photo uploaded twice is
 * one row, and its addresses never change what they serve.
 */
export async function storeProductImage(
  db: Db,
  bytes: Buffer,
  actor: AuditActor,
  purpose: ImagePurpose = "photo",
): Promise<UploadedProductImage> {
  if (bytes.length > MAX_IMAGE_BYTES) throw imageTooLarge();
  if (bytes.length === 0) throw notAnImage();
  // The same file uploaded as a logo and as a photo makes different renditions, so each has its own row.
  const hash = createHash("sha256");
  if (purpose === "logo") hash.update("logo:");
  const id = hash.update(bytes).digest("hex").slice(0, 32);
  const key = `uploads/${id}`;
  // A photo uploaded again starts its day anew, so the sweep does not take it while the editor holds it.
  const [known] = await db
    .update(productImageFiles)
    .set({ createdAt: sql`now()` })
    .where(eq(productImageFiles.id, id))
    .returning({ id: productImageFiles.id });
  if (!known) {
    await checkPhoto(bytes);
    const files = await processInTurn(() => renditions(bytes, purpose));
    await db.transaction(async (tx) => {
      const [stored] = await tx
        .insert(productImageFiles)
        .values({ id, ...files, uploadedBy: actor.id })
        .onConflictDoNothing()
        .returning({ id: productImageFiles.id });
      if (stored) {
        await recordAudit(tx, {
          actor,
          entityType: "product",
          entityId: key,
          action: "upload_image",
          after: { key, bytes: bytes.length, small: files.small.length, large: files.large.length },
        });
      }
    });
  }
  return { ...imageFor(key), key, alt: "" };
}

/**
 * A save (product or combo) attaching uploaded photos, in its transaction: the photos that exist, with their
 * rows locked and their time renewed. The sweep's DELETE waits for that lock and then finds them new, and
 * a photo the sweep took first is missing here, so the save is refused instead of naming a photo that is gone.
 */
export async function attachUploads(tx: Tx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .update(productImageFiles)
    .set({ createdAt: sql`now()` })
    .where(inArray(productImageFiles.id, ids))
    .returning({ id: productImageFiles.id });
  return new Set(rows.map((row) => row.id));
}

export const SWEEP_UPLOADS_JOB = "sweep-unused-uploads";

/** How long a photo uploaded but not yet saved with a product or combo is kept for its editor. */
export const UNUSED_UPLOAD_HOURS = 24;

/**
 * Deletes photos uploaded more than a day ago that nothing shows: no product's images, no combo's picture
 * or image, no order line (old orders keep their pictures), not the shop's logo nor a hero slide. Returns how many went.
 */
export async function sweepUnusedUploads(db: Db, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - UNUSED_UPLOAD_HOURS * 60 * 60_000);
  const key = sql`'uploads/' || f.id`;
  const swept = await db.execute<{ id: string }>(sql`
    delete from product_image_files f
     where f.created_at < ${cutoff.toISOString()}::timestamptz
       and not exists (select 1 from products p where p.images @> jsonb_build_array(${key}))
       and not exists (select 1 from combos c where c.picture = ${key} or c.image = ${key})
       and not exists (select 1 from order_lines l where l.image = ${key})
       and not exists (select 1 from shop_settings s where s.logo = ${key})
       and not exists (select 1 from hero_slides h where h.image = ${key})
    returning f.id`);
  return swept.rows.length;
}

/**
 * Queues the sweep once an hour while the shop runs. Every instance offers the same hour's job under one key,
 * so it runs once across all instances. Returns the function that stops it.
 */
export function scheduleUploadSweep(db: Db): () => void {
  const offer = () => {
    const hour = new Date().toISOString().slice(0, 13);
    enqueueJob(db, { kind: SWEEP_UPLOADS_JOB, payload: {}, key: `${SWEEP_UPLOADS_JOB}:${hour}` }).catch(
      (error) => log.warn({ err: serializeError(error) }, "could not queue the sweep of unused photos"),
    );
  };
  offer();
  const timer = setInterval(offer, 60 * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}

const FILE = /^([0-9a-f]{32})(-400\.webp|-800\.webp|\.jpg)$/;

/**
 * /images/uploads/<hash>-400.webp, -800.webp and .jpg, read from PostgreSQL. The address names the
 * bytes, so browsers and proxies may keep them for good.
 */
export function uploadedImageRoutes(db: Db) {
  return new Hono().get("/:file", async (c) => {
    const match = FILE.exec(c.req.param("file"));
    if (!match) throw notFound("No such image.");
    const [, id, kind] = match as unknown as [string, string, string];
    const column =
      kind === "-400.webp"
        ? productImageFiles.small
        : kind === "-800.webp"
          ? productImageFiles.large
          : productImageFiles.og;
    const tag = `"${id}${kind}"`;
    if (c.req.header("If-None-Match") === tag) return c.body(null, 304);
    const [row] = await db
      .select({ bytes: column })
      .from(productImageFiles)
      .where(eq(productImageFiles.id, id));
    if (!row) throw notFound("No such image.");
    c.header("Content-Type", kind === ".jpg" ? "image/jpeg" : "image/webp");
    c.header("Cache-Control", "public, max-age=31536000, immutable");
    c.header("ETag", tag);
    return c.body(new Uint8Array(row.bytes));
  });
}
