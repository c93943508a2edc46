import { and, asc, eq, isNotNull, or, sql } from "drizzle-orm";
import {
  type AdminCodRules,
  type CodDecision,
  type CodPlaceRule,
  type CodPlaceRuleInput,
  type CodRules,
  type CodSettings,
  evaluateCod,
} from "../../common/cod-rules.ts";
import type { CodSettings as ShownCodSettings } from "../../common/delivery-check.ts";
import { NO_PREPAID_INCENTIVE, type PrepaidIncentive } from "../../common/prepaid-incentive.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { fromTemplate } from "../db/message-transaction.ts";
import { build, type Read, readAs, readNow, tableRowsRead, together } from "../db/reads.ts";
import { codPlaceRules, codSettings, orderRto, orders } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import type { Env } from "../env.ts";
import { httpError } from "../errors.ts";

type SettingsRow = typeof codSettings.$inferSelect;

/** The row as the rules read it: until the owner first saves, the environment's first values. */
function settingsOf(
  row: SettingsRow | undefined,
  env: Pick<Env, "COD_ENABLED" | "COD_MAX_ORDER_PAISE">,
): CodSettings {
  if (!row?.updatedBy) {
    return {
      enabled: env.COD_ENABLED,
      maxOrderPaise: env.COD_MAX_ORDER_PAISE,
      firstOrderMaxPaise: row?.firstOrderMaxPaise ?? null,
      prepaidOnlyAfterRtos: row?.prepaidOnlyAfterRtos ?? null,
    };
  }
  return {
    enabled: row.enabled,
    maxOrderPaise: row.maxOrderPaise,
    firstOrderMaxPaise: row.firstOrderMaxPaise,
    prepaidOnlyAfterRtos: row.prepaidOnlyAfterRtos,
  };
}

const placeOf = (row: typeof codPlaceRules.$inferSelect): CodPlaceRule => ({
  kind: row.kind,
  value: row.value,
  maxPaise: row.maxPaise,
  note: row.note,
});

/** The rules as they stand, read from PostgreSQL; `db` may be the order's transaction. */
export function readCodRules(db: DbOrTx, env: Env): Promise<CodRules & { confirmHours: number }> {
  return readNow(db, codRulesRead(env));
}

/** readCodRules' read, which placing an order by cash on delivery sends with its other statements. */
export function codRulesRead(env: Env): Read<CodRules & { confirmHours: number }> {
  const parts = together({
    settings: tableRowsRead(
      fromTemplate("cod settings", () => build.select().from(codSettings).where(eq(codSettings.id, 1)), {}),
      codSettings,
    ),
    places: tableRowsRead(
      fromTemplate(
        "cod place rules",
        () => build.select().from(codPlaceRules).orderBy(asc(codPlaceRules.kind), asc(codPlaceRules.value)),
        {},
      ),
      codPlaceRules,
    ),
  });
  return readAs(parts, ({ settings: [row], places }) => ({
    ...settingsOf(row, env),
    places: places.map(placeOf),
    // The hours a COD order has to be confirmed in (confirmation.ts confirmHours), read with the rules.
    confirmHours: row?.confirmHours ?? env.COD_CONFIRM_HOURS,
  }));
}

/**
 * The rules for checkout and "Check delivery": remembered with the catalogue and forgotten on every instance
 * when the owner's change commits (the tables' triggers, migration 0030). Placing an order reads them again
 * inside its transaction with readCodRules.
 */
export function cachedCodRules(deps: Deps): Promise<CodRules> {
  return deps.catalogue.remember("cod rules", () => readCodRules(deps.db, deps.env));
}

/** The two switches the checkout summary has always shown (enabled and the shop-wide cap). */
export const shownCodSettings = (rules: CodRules): ShownCodSettings => ({
  enabled: rules.enabled,
  maxOrderPaise: rules.maxOrderPaise,
});

/** Who is buying, as far as the customer rules need to know: the account, the mobile, the address. */
export type CodCustomer = { userId: string | null; mobile: string; pin: string; line1: string };

/**
 * How many orders of this customer were delivered, and how many parcels came back to origin: by the account,
 * the delivery mobile, or the same first address line at the same PIN (compared without case or spaces).
 */
export async function customerHistory(db: DbOrTx, customer: CodCustomer) {
  const sameAddress = and(
    eq(orders.shipPin, customer.pin),
    sql`lower(regexp_replace(${orders.shipLine1}, '\\s+', '', 'g')) = ${customer.line1.replace(/\s+/g, "").toLowerCase()}`,
  );
  const theirs = or(
    customer.userId ? eq(orders.userId, customer.userId) : undefined,
    eq(orders.shipPhone, customer.mobile),
    sameAddress,
  );
  const [[delivered], [returned]] = await Promise.all([
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(
        and(
          isNotNull(orders.deliveredAt),
          or(
            customer.userId ? eq(orders.userId, customer.userId) : undefined,
            eq(orders.shipPhone, customer.mobile),
          ),
        ),
      ),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(orderRto)
      .innerJoin(orders, eq(orders.id, orderRto.orderId))
      .where(theirs),
  ]);
  return { earlierDelivered: delivered?.n ?? 0, earlierRtos: returned?.n ?? 0 };
}

/** The one decision for an order: the rules, the place and the customer's history. */
export async function decideCod(
  db: DbOrTx,
  rules: CodRules,
  order: {
    totalPaise: number;
    pin: string;
    district: string | null;
    state: string | null;
    customer: CodCustomer | null;
  },
): Promise<CodDecision> {
  // Counted only for a rule the owner has set: the counts are two queries on every COD order placed.
  const history =
    order.customer && (rules.firstOrderMaxPaise !== null || rules.prepaidOnlyAfterRtos !== null)
      ? await customerHistory(db, order.customer)
      : { earlierDelivered: null, earlierRtos: null };
  return evaluateCod(rules, {
    totalPaise: order.totalPaise,
    pin: order.pin,
    district: order.district,
    state: order.state,
    ...history,
  });
}

/** The owner's reward for paying online, as the row keeps it (the environment gives none). */
function incentiveOf(row: SettingsRow | undefined): PrepaidIncentive {
  switch (row?.prepaidIncentive) {
    case "percent":
      return { kind: "percent", percent: row.prepaidPercent ?? 0, capPaise: row.prepaidCapPaise };
    case "flat":
      return { kind: "flat", amountPaise: row.prepaidAmountPaise ?? 0 };
    case "free_shipping":
      return { kind: "free_shipping" };
    default:
      return NO_PREPAID_INCENTIVE;
  }
}

/** The incentive as it stands; Place order and switching to online payment read it in their transaction. */
export async function readPrepaidIncentive(db: DbOrTx): Promise<PrepaidIncentive> {
  const [row] = await db.select().from(codSettings).where(eq(codSettings.id, 1));
  return incentiveOf(row);
}

/** For the checkout page: remembered with the COD rules and forgotten with them (the row's trigger). */
export function cachedPrepaidIncentive(deps: Deps): Promise<PrepaidIncentive> {
  return deps.catalogue.remember("prepaid incentive", () => readPrepaidIncentive(deps.db));
}

/**
 * Saves the owner's incentive under the row's lock, audited with the COD rules. Like the confirmation hours it
 * does not count as saving the COD switches (updated_by stays as it was).
 */
export async function savePrepaidIncentive(db: Db, input: PrepaidIncentive, actor: AuditActor) {
  const columns = {
    prepaidIncentive: input.kind,
    prepaidPercent: input.kind === "percent" ? input.percent : null,
    prepaidCapPaise: input.kind === "percent" ? input.capPaise : null,
    prepaidAmountPaise: input.kind === "flat" ? input.amountPaise : null,
  };
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(codSettings).where(eq(codSettings.id, 1)).for("update");
    await tx
      .insert(codSettings)
      .values({ id: 1, ...columns })
      .onConflictDoUpdate({ target: codSettings.id, set: { ...columns, updatedAt: new Date() } });
    await recordAudit(tx, {
      actor,
      entityType: "cod_rule",
      entityId: "prepaid-incentive",
      action: "update",
      before: incentiveOf(current),
      after: input,
    });
    return input;
  });
}

// ---- The owner's page

/** The page's view: the settings and the place rules (the first 500). */
export async function adminCodRules(db: Db, env: Env): Promise<AdminCodRules> {
  const [[row], places] = await Promise.all([
    db.select().from(codSettings).where(eq(codSettings.id, 1)),
    db.select().from(codPlaceRules).orderBy(asc(codPlaceRules.kind), asc(codPlaceRules.value)).limit(500),
  ]);
  return {
    settings: { ...settingsOf(row, env), updatedAt: row?.updatedBy ? row.updatedAt.toISOString() : null },
    prepaidIncentive: incentiveOf(row),
    places: places.map((place) => ({ ...placeOf(place), updatedAt: place.updatedAt.toISOString() })),
  };
}

/** Saves the owner's switches under the row's lock, with the audit entry of what changed. */
export async function saveCodSettings(db: Db, env: Env, input: CodSettings, actor: AuditActor) {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(codSettings).where(eq(codSettings.id, 1)).for("update");
    const before = settingsOf(current, env);
    await tx
      .insert(codSettings)
      .values({ id: 1, ...input, updatedBy: actor.id, updatedAt: new Date() })
      .onConflictDoUpdate({
        target: codSettings.id,
        set: { ...input, updatedBy: actor.id, updatedAt: new Date() },
      });
    await recordAudit(tx, {
      actor,
      entityType: "cod_rule",
      entityId: "settings",
      action: "update",
      before,
      after: input,
    });
    return input;
  });
}

const placeKey = (rule: Pick<CodPlaceRule, "kind" | "value">) => `${rule.kind}:${rule.value}`;

/** Adds or changes the rule for one place (a district matched without case); returns whether it was new. */
export async function putCodPlaceRule(db: Db, input: CodPlaceRuleInput, actor: AuditActor) {
  return db.transaction(async (tx) => {
    const same = and(
      eq(codPlaceRules.kind, input.kind),
      sql`lower(${codPlaceRules.value}) = lower(${input.value})`,
    );
    const [current] = await tx.select().from(codPlaceRules).where(same).for("update");
    const values = { kind: input.kind, value: input.value, maxPaise: input.maxPaise, note: input.note };
    const [row] = current
      ? await tx
          .update(codPlaceRules)
          .set({ ...values, updatedAt: new Date() })
          .where(eq(codPlaceRules.id, current.id))
          .returning()
      : await tx.insert(codPlaceRules).values(values).onConflictDoNothing().returning();
    // Two owners adding the same place at once: the second finds it taken by the unique index.
    if (!row)
      throw httpError(
        409,
        "conflict",
        "This place was given a rule at the same moment. Reload and try again.",
      );
    await recordAudit(tx, {
      actor,
      entityType: "cod_rule",
      entityId: placeKey(row),
      action: current ? "update" : "create",
      before: current ? placeOf(current) : undefined,
      after: placeOf(row),
    });
    return { rule: { ...placeOf(row), updatedAt: row.updatedAt.toISOString() }, created: !current };
  });
}

export async function deleteCodPlaceRule(
  db: Db,
  key: Pick<CodPlaceRule, "kind" | "value">,
  actor: AuditActor,
) {
  return db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(codPlaceRules)
      .where(and(eq(codPlaceRules.kind, key.kind), sql`lower(${codPlaceRules.value}) = lower(${key.value})`))
      .returning();
    if (!removed) return false;
    await recordAudit(tx, {
      actor,
      entityType: "cod_rule",
      entityId: placeKey(removed),
      action: "delete",
      before: placeOf(removed),
    });
    return true;
  });
}
