import { asc, eq, sql } from "drizzle-orm";
import { imageFor } from "../../common/catalogue.ts";
import {
  type HeroSlide,
  type HeroSlideInput,
  type HeroTone,
  isUploadedImage,
} from "../../common/schemas/hero-slides.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { heroSlides } from "../db/schema.ts";
import { httpError } from "../errors.ts";
import { attachUploads } from "../products/product-images.ts";

type SlideRow = typeof heroSlides.$inferSelect;

const presentSlide = (row: SlideRow): HeroSlide => ({
  position: row.position,
  active: row.active,
  eyebrow: row.eyebrow,
  heading: row.heading,
  text: row.text,
  buttonLabel: row.buttonLabel,
  buttonTarget: row.buttonTarget,
  image: { ...imageFor(row.image), key: row.image },
  imageAlt: row.imageAlt,
  tone: row.tone as HeroTone,
});

/** The slides in their order: every one for the owner, the shown ones for the home page. */
export async function readHeroSlides(
  db: Pick<Db, "select">,
  { shownOnly }: { shownOnly: boolean },
): Promise<HeroSlide[]> {
  const rows = await db
    .select()
    .from(heroSlides)
    .where(shownOnly ? eq(heroSlides.active, true) : undefined)
    .orderBy(asc(heroSlides.position));
  return rows.map(presentSlide);
}

const auditView = (slides: HeroSlide[]) =>
  slides.map(({ position: _, ...slide }) => ({ ...slide, image: slide.image.key }));

/**
 * Replaces the list with the owner's, in one transaction with its audit entry. A picture must be an upload
 * that is still there (its row locked and renewed, so the sweep cannot take it) or one a slide already shows.
 */
export async function updateHeroSlides(
  db: Db,
  slides: HeroSlideInput[],
  actor: AuditActor,
): Promise<HeroSlide[]> {
  return db.transaction(async (tx) => {
    // Two saves at once would interleave their deletes and inserts: the second waits for the first.
    await tx.execute(sql`lock table hero_slides in share row exclusive mode`);
    const before = await readHeroSlides(tx, { shownOnly: false });
    const shownNow = new Set(before.map((slide) => slide.image.key));
    const uploads = slides.map((slide) => slide.image).filter(isUploadedImage);
    const found = await attachUploads(
      tx,
      uploads.map((key) => key.slice("uploads/".length)),
    );
    slides.forEach((slide, index) => {
      const known = isUploadedImage(slide.image)
        ? found.has(slide.image.slice("uploads/".length))
        : shownNow.has(slide.image);
      if (!known) {
        const field = `slides.${index}.image`;
        const problem = "is not an uploaded image, or was uploaded over a day ago: upload it again";
        throw httpError(400, "invalid_request", `${field}: ${problem}`, { [field]: problem });
      }
    });
    await tx.delete(heroSlides);
    if (slides.length > 0) {
      await tx.insert(heroSlides).values(slides.map((slide, position) => ({ ...slide, position })));
    }
    const after = await readHeroSlides(tx, { shownOnly: false });
    await recordAudit(tx, {
      actor,
      entityType: "settings",
      entityId: "hero_slides",
      action: "update_hero_slides",
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  });
}
