import { asc, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import {
  type DeliveryRule,
  type PinPlace,
  ruleForPin,
  UNKNOWN_PIN_MESSAGE,
} from "../../common/delivery-check.ts";
import type { Address } from "../../common/schemas/address.ts";
import type {
  AdminDeliveryRule,
  AdminDeliveryRulePage,
  DeliveryRuleInput,
} from "../../common/schemas/delivery.ts";
import { type AuditActor, recordAudit } from "../audit/audit.ts";
import type { Db, DbOrTx } from "../db/client.ts";
import { fromTemplate } from "../db/message-transaction.ts";
import { build, type Read, readAs, readNow, rowsRead, selectedRowSchema } from "../db/reads.ts";
import { deliveryRules } from "../db/schema.ts";
import { httpError } from "../errors.ts";
import { lookUpPin } from "./pin-directory.ts";

type Row = typeof deliveryRules.$inferSelect;

const toAdmin = (row: Row): AdminDeliveryRule => ({
  prefix: row.prefix,
  rule: row.rule,
  note: row.note,
  updatedAt: row.updatedAt.toISOString(),
});

/** 400 naming the field, in the error shape, for a PIN India Post does not list. */
export const unknownPin = (field: string, message = UNKNOWN_PIN_MESSAGE) =>
  httpError(400, "unknown_pin", `${field}: ${message}`, { [field]: message });

/** The owner's rule that decides for this PIN (the longest matching prefix), or null. Uses the primary key. */
export function findDeliveryRule(db: DbOrTx, pin: string): Promise<DeliveryRule | null> {
  return readNow(db, deliveryRuleRead(pin));
}

const prefixesOf = (pin: string) => Array.from({ length: pin.length }, (_, index) => pin.slice(0, index + 1));

const ruleColumns = { prefix: deliveryRules.prefix, rule: deliveryRules.rule, note: deliveryRules.note };
const ruleRow = selectedRowSchema(ruleColumns, {
  prefix: z.string(),
  rule: z.enum(["not_served", "served"]),
  note: z.string(),
});

/** findDeliveryRule's read, which placing an order sends with its other statements. */
export function deliveryRuleRead(pin: string): Read<DeliveryRule | null> {
  const statement = fromTemplate(
    "delivery rule",
    () =>
      build
        .select(ruleColumns)
        .from(deliveryRules)
        .where(sql`${deliveryRules.prefix} = any(${sql.placeholder("prefixes")})`),
    { prefixes: prefixesOf(pin) },
  );
  return readAs(rowsRead(statement, ruleRow), (rows) => ruleForPin(pin, rows));
}

/** deliveryTo's answer with the owner's rule already read (deliveryRuleRead). */
export async function deliveryFrom(
  pin: string,
  field: string,
  rule: DeliveryRule | null,
): Promise<{ place: PinPlace; rule: DeliveryRule | null }> {
  const place = await lookUpPin(pin);
  if (!place) throw unknownPin(field);
  return { place, rule };
}

/** A PIN's place in the directory and the owner's rule for it; 400 on `field` when the directory lacks it. */
export async function deliveryTo(
  db: DbOrTx,
  pin: string,
  field: string,
): Promise<{ place: PinPlace; rule: DeliveryRule | null }> {
  const place = await lookUpPin(pin);
  if (!place) throw unknownPin(field);
  return { place, rule: await findDeliveryRule(db, pin) };
}

/**
 * What the form's schema cannot know: that India Post lists the PIN, and in the state given. Both are
 * refused as a 400 naming `pin` before anything is written.
 */
export async function checkAddressPlace(address: Pick<Address, "pin" | "state">): Promise<PinPlace> {
  const place = await lookUpPin(address.pin);
  if (!place) throw unknownPin("pin");
  if (!place.states.includes(address.state)) {
    throw unknownPin("pin", `This PIN code is in ${place.state}, not ${address.state}`);
  }
  return place;
}

export async function listDeliveryRules(
  db: Db,
  query: { after?: string; limit: number },
): Promise<AdminDeliveryRulePage> {
  const rows = await db
    .select()
    .from(deliveryRules)
    .where(query.after ? gt(deliveryRules.prefix, query.after) : undefined)
    .orderBy(asc(deliveryRules.prefix))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    items: page.map(toAdmin),
    next: rows.length > query.limit ? (page.at(-1)?.prefix ?? null) : null,
  };
}

/** Sets the rule for a prefix (new or changed), with its audit entry in the same transaction. */
export async function putDeliveryRule(
  db: Db,
  prefix: string,
  input: Required<DeliveryRuleInput>,
  actor: AuditActor,
): Promise<{ rule: AdminDeliveryRule; created: boolean }> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(deliveryRules)
      .where(eq(deliveryRules.prefix, prefix))
      .for("update");
    const [row] = await tx
      .insert(deliveryRules)
      .values({ prefix, rule: input.rule, note: input.note })
      .onConflictDoUpdate({
        target: deliveryRules.prefix,
        set: { rule: input.rule, note: input.note, updatedAt: new Date() },
      })
      .returning();
    if (!row) throw new Error("delivery rule upsert returned nothing");
    const after = toAdmin(row);
    await recordAudit(tx, {
      actor,
      entityType: "delivery_rule",
      entityId: prefix,
      action: current ? "update" : "create",
      before: current ? { rule: current.rule, note: current.note } : undefined,
      after: { rule: after.rule, note: after.note },
    });
    return { rule: after, created: !current };
  });
}

export async function deleteDeliveryRule(db: Db, prefix: string, actor: AuditActor): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [removed] = await tx.delete(deliveryRules).where(eq(deliveryRules.prefix, prefix)).returning();
    if (!removed) return false;
    await recordAudit(tx, {
      actor,
      entityType: "delivery_rule",
      entityId: prefix,
      action: "delete",
      before: { rule: removed.rule, note: removed.note },
    });
    return true;
  });
}
