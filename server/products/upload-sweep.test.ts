import { eq, inArray, sql } from "drizzle-orm";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { AdminProduct } from "../../common/schemas/admin-products.ts";
import { signUpWithRole, type TestAccount } from "../../tests/accounts.ts";
import { callApi, setUpTestApp } from "../../tests/database.ts";
import { placeGuestOrderRequest } from "../../tests/orders.ts";
import { combos, jobs, orderLines, orders, productImageFiles } from "../db/schema.ts";
import { enqueueJob } from "../jobs/job-queue.ts";
import { SWEEP_UPLOADS_JOB, scheduleUploadSweep, sweepUnusedUploads } from "./product-images.ts";

const shop = setUpTestApp();
let owner: TestAccount;
let shade = 0;

beforeAll(async () => {
  owner = await signUpWithRole(shop, "sweep-owner@example.in", "owner");
});

const api = (method: string, path: string, body?: unknown) =>
  callApi(shop.app, method, `/api${path}`, { body, as: owner });

/** Uploads a new photo through the editor's endpoint; its key. */
async function upload(): Promise<string> {
  shade += 1;
  const bytes = await sharp({
    create: { width: 500, height: 500, channels: 3, background: { r: shade * 20, g: 80, b: 120 } },
  })
    .png()
    .toBuffer();
  const { status, body } = await api("POST", "/admin/product-images", { image: bytes.toString("base64") });
  expect(status).toBe(201);
  return body.key;
}

const idOf = (key: string) => key.slice("uploads/".length);

async function ageBy(keys: string[], hours: number) {
  await shop.db
    .update(productImageFiles)
    .set({ createdAt: sql`now() - make_interval(hours => ${hours})` })
    .where(inArray(productImageFiles.id, keys.map(idOf)));
}

const stored = async (keys: string[]) =>
  (
    await shop.db
      .select({ id: productImageFiles.id })
      .from(productImageFiles)
      .where(inArray(productImageFiles.id, keys.map(idOf)))
  ).map((row) => `uploads/${row.id}`);

async function until<T>(read: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("photos uploaded but never saved", () => {
  it("are deleted after a day by the job; photos a product, a combo or an order shows stay", async () => {
    const [onProduct, onCombo, onOrder, unsaved, fresh] = [
      await upload(),
      await upload(),
      await upload(),
      await upload(),
      await upload(),
    ];
    // Attached the ways the shop attaches them: the product editor's save, the combo editor's save.
    const current = (await api("GET", "/admin/products/bath-powder")).body as AdminProduct;
    const saved = await api("PUT", "/admin/products/bath-powder", {
      name: current.name,
      slug: current.slug,
      pricePaise: current.pricePaise,
      originalPricePaise: current.originalPricePaise,
      description: current.description,
      benefits: current.benefits,
      category: current.category,
      subcategory: current.subcategory,
      badge: current.badge,
      menus: current.menus,
      images: [{ key: onProduct, alt: "A jar of bath powder" }],
      active: current.active,
      version: current.version,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await api("PATCH", "/admin/combos/body-combo", { picture: onCombo })).status).toBe(200);
    // An order placed when a product showed a photo keeps the photo's key on its line.
    const placed = await placeGuestOrderRequest(shop.app, {
      email: "sweep-guest@example.in",
      items: [{ id: "coconut-oil", kind: "product", quantity: 1 }],
    });
    expect(placed.status).toBe(201);
    const [order] = await shop.db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.guestEmail, "sweep-guest@example.in"));
    await shop.db
      .update(orderLines)
      .set({ image: onOrder })
      .where(eq(orderLines.orderId, order?.id ?? ""));

    await ageBy([onProduct, onCombo, onOrder, unsaved], 25);
    await ageBy([fresh], 23);

    await enqueueJob(shop.db, { kind: SWEEP_UPLOADS_JOB, payload: {}, key: `${SWEEP_UPLOADS_JOB}:test` });
    shop.deps.jobs.wake();
    await until(async () => {
      const [job] = await shop.db
        .select()
        .from(jobs)
        .where(eq(jobs.key, `${SWEEP_UPLOADS_JOB}:test`));
      return job?.status === "done" ? job : undefined;
    });

    expect((await stored([onProduct, onCombo, onOrder, unsaved, fresh])).sort()).toEqual(
      [onProduct, onCombo, onOrder, fresh].sort(),
    );
    expect((await shop.app.request(`/images/${unsaved}-400.webp`)).status).toBe(404);
    expect((await shop.app.request(`/images/${onCombo}-400.webp`)).status).toBe(200);
  });

  it("a photo uploaded again, or saved with a product or combo, starts its day anew", async () => {
    const again = await upload();
    await ageBy([again], 30);
    // The same bytes once more: the editor now holds it, so the sweep must not take it.
    shade -= 1;
    expect(await upload()).toBe(again);
    const attached = await upload();
    await ageBy([attached], 30);
    expect((await api("PATCH", "/admin/combos/haircare-combo", { picture: attached })).status).toBe(200);
    await shop.db.update(combos).set({ picture: null }).where(eq(combos.id, "haircare-combo"));
    expect(await sweepUnusedUploads(shop.db)).toBe(0);
    expect((await stored([again, attached])).sort()).toEqual([again, attached].sort());
    // A day later, unsaved and unused, both go.
    expect(await sweepUnusedUploads(shop.db, new Date(Date.now() + 25 * 60 * 60_000))).toBeGreaterThanOrEqual(
      2,
    );
    expect(await stored([again, attached])).toEqual([]);
  });

  it("is queued once an hour however many instances offer it", async () => {
    const stops = [scheduleUploadSweep(shop.db), scheduleUploadSweep(shop.db)];
    const runs = await until(async () => {
      const rows = await shop.db
        .select()
        .from(jobs)
        .where(sql`${jobs.kind} = ${SWEEP_UPLOADS_JOB} and ${jobs.key} <> ${`${SWEEP_UPLOADS_JOB}:test`}`);
      return rows.length > 0 && rows.every((row) => row.status === "done") ? rows : undefined;
    });
    for (const stop of stops) stop();
    expect(runs.length).toBeLessThanOrEqual(2);
    for (const run of runs) expect(run.key).toMatch(/^sweep-unused-uploads:\d{4}-\d\d-\d\dT\d\d$/);
  });
});
