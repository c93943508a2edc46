import { desc, eq, sql } from "drizzle-orm";
import type {
  AdminDiscountCode,
  AdminDiscountCodePage,
  CreateDiscountCode,
  UpdateDiscountCode,
} from "../../common/schemas/discount-codes.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db } from "../db/client.ts";
import { discountCodes } from "../db/schema.ts";
import { httpError } from "../errors.ts";

type Row = typeof discountCodes.$inferSelect;

const toAdmin = (row: Row): AdminDiscountCode => ({
  code: row.code,
  description: row.description,
  percent: row.percent,
  amountOffPaise: row.amountOffPaise,
  minAmountPaise: row.minAmountPaise,
  startsAt: row.startsAt?.toISOString() ?? null,
  endsAt: row.endsAt?.toISOString() ?? null,
  maxUses: row.maxUses,
  timesUsed: row.timesUsed,
  usesPerCustomer: row.usesPerCustomer,
  active: row.active,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** A sent instant (null clears it), or the stored one when none was sent. */
const instantOr = (sent: string | null | undefined, stored: Date | null) =>
  sent === undefined ? stored : sent === null ? null : new Date(sent);

const badField = (field: string, problem: string) =>
  httpError(400, "invalid_request", `${field}: ${problem}`, { [field]: problem });

/**
 * The cursor is the last row's (created_at, code), the time written by PostgreSQL to the microsecond so
 * the next page starts exactly after it. Keyset, newest first: a page costs the same at any depth and
 * nothing counts the table.
 */
function readCursor(cursor: string | undefined): { at: string; code: string } | null {
  if (!cursor) return null;
  const [at, code] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!at || !code || Number.isNaN(Date.parse(at))) throw badField("cursor", "is not one this list gave out");
  return { at, code };
}

export async function listDiscountCodes(
  db: Db,
  query: { cursor?: string; limit: number },
): Promise<AdminDiscountCodePage> {
  const after = readCursor(query.cursor);
  const rows = await db
    .select({
      row: discountCodes,
      at: sql<string>`to_char(${discountCodes.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(discountCodes)
    .where(
      after
        ? sql`(${discountCodes.createdAt}, ${discountCodes.code}) < (${after.at}::timestamptz, ${after.code})`
        : undefined,
    )
    .orderBy(desc(discountCodes.createdAt), desc(discountCodes.code))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    items: page.map(({ row }) => toAdmin(row)),
    nextCursor:
      rows.length > query.limit && last
        ? Buffer.from(`${last.at}|${last.row.code}`, "utf8").toString("base64url")
        : null,
  };
}

export async function getDiscountCode(db: Db, code: string): Promise<AdminDiscountCode | null> {
  const [row] = await db.select().from(discountCodes).where(eq(discountCodes.code, code.toUpperCase()));
  return row ? toAdmin(row) : null;
}

/** A code that exists already is refused (409 naming the field) and nothing is written. */
export async function createDiscountCode(
  db: Db,
  input: CreateDiscountCode,
  actor: AuditActor,
): Promise<AdminDiscountCode> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(discountCodes)
      .values({
        code: input.code,
        description: input.description.trim(),
        percent: input.percent ?? 0,
        amountOffPaise: input.amountOffPaise ?? 0,
        minAmountPaise: input.minAmountPaise,
        startsAt: input.startsAt ? new Date(input.startsAt) : null,
        endsAt: input.endsAt ? new Date(input.endsAt) : null,
        maxUses: input.maxUses,
        usesPerCustomer: input.usesPerCustomer,
        active: input.active,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) {
      const problem = `${input.code} exists already`;
      throw httpError(409, "discount_code_exists", `code: ${problem}`, { code: problem });
    }
    const after = toAdmin(row);
    await recordAudit(tx, {
      actor,
      entityType: "discount_code",
      entityId: row.code,
      action: "create",
      after,
    });
    return after;
  });
}

/**
 * Changes a code under its row lock, checking the result against what is stored: the window as a whole,
 * and a total limit never below the uses already spent (orders placed meanwhile wait for the lock).
 */
export async function updateDiscountCode(
  db: Db,
  code: string,
  input: UpdateDiscountCode,
  actor: AuditActor,
): Promise<{ before: AdminDiscountCode; after: AdminDiscountCode } | null> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(discountCodes)
      .where(eq(discountCodes.code, code.toUpperCase()))
      .for("update");
    if (!current) return null;
    const startsAt = instantOr(input.startsAt, current.startsAt);
    const endsAt = instantOr(input.endsAt, current.endsAt);
    if (startsAt && endsAt && endsAt <= startsAt)
      throw badField("endsAt", "The end must be after the start.");
    const maxUses = input.maxUses === undefined ? current.maxUses : input.maxUses;
    if (maxUses !== null && maxUses < current.timesUsed) {
      throw badField("maxUses", `The total cannot be below the ${current.timesUsed} uses already spent.`);
    }
    const kind =
      input.percent !== undefined
        ? { percent: input.percent, amountOffPaise: 0 }
        : input.amountOffPaise !== undefined
          ? { percent: 0, amountOffPaise: input.amountOffPaise }
          : {};
    const [row] = await tx
      .update(discountCodes)
      .set({
        ...kind,
        ...(input.description === undefined ? {} : { description: input.description.trim() }),
        ...(input.minAmountPaise === undefined ? {} : { minAmountPaise: input.minAmountPaise }),
        ...(input.active === undefined ? {} : { active: input.active }),
        ...(input.usesPerCustomer === undefined ? {} : { usesPerCustomer: input.usesPerCustomer }),
        startsAt,
        endsAt,
        maxUses,
      })
      .where(eq(discountCodes.code, current.code))
      .returning();
    if (!row) return null;
    const change = { before: toAdmin(current), after: toAdmin(row) };
    await recordAudit(tx, {
      actor,
      entityType: "discount_code",
      entityId: row.code,
      action: "update",
      ...change,
    });
    return change;
  });
}
