import { z } from "zod";
import { INDIAN_STATE_NAMES } from "./india.ts";
import { formatRupees, type Paise } from "./money.ts";
import type { PrepaidIncentive } from "./prepaid-incentive.ts";
import { plainText } from "./schemas/text.ts";

/**
 * The owner's cash-on-delivery rules (docs/decisions/062) and the one function that applies them. Checkout,
 * placing the order, "Check delivery" and the bench's simulation all call `evaluateCod`, so what the owner
 * previews in the simulation is what the shop does.
 */

export const COD_PLACE_KINDS = ["pin", "district", "state"] as const;
export type CodPlaceKind = (typeof COD_PLACE_KINDS)[number];

/**
 * COD off (maxPaise null) or capped for a PIN or PIN prefix, a district or a state. The one store of "no cash
 * on delivery here": decision 043's delivery rules of that kind were moved into it (docs/decisions/062).
 */
export type CodPlaceRule = { kind: CodPlaceKind; value: string; maxPaise: Paise | null; note: string };

export type CodSettings = {
  enabled: boolean;
  maxOrderPaise: Paise;
  /** A shopper with no delivered order yet may pay in cash only up to this much; null: no separate cap. */
  firstOrderMaxPaise: Paise | null;
  /** After this many parcels returned to origin, a customer pays online; null: never. */
  prepaidOnlyAfterRtos: number | null;
};

export type CodRules = CodSettings & { places: readonly CodPlaceRule[] };

/** What is known of this order when the rules are applied. */
export type CodFacts = {
  totalPaise: Paise;
  pin: string;
  district: string | null;
  state: string | null;
  /**
   * Delivered orders and parcels returned to origin of this customer (by account, mobile or address). Null
   * when nobody is known yet ("Check delivery" on a product page): the customer rules are not applied.
   */
  earlierDelivered: number | null;
  earlierRtos: number | null;
};

export type CodRuleName = "off" | "pin_no_cod" | "place" | "max_order" | "first_order" | "rto_history";

export type CodDecision =
  | { available: true }
  | {
      available: false;
      rule: CodRuleName;
      reason: string;
      maxPaise: Paise | null;
      /** Where a PIN or place rule refuses it, in the shopper's words ("this PIN code", "Patna district"). */
      where?: string;
    };

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

const PLACE_WORDS: Record<CodPlaceKind, (value: string) => string> = {
  pin: (value) => (value.length === 6 ? `PIN code ${value}` : `PIN codes starting ${value}`),
  district: (value) => `${value} district`,
  state: (value) => value,
};

/** The place rules that apply to this address: the longest PIN prefix, the district's and the state's. */
export function placeRulesFor(
  facts: Pick<CodFacts, "pin" | "district" | "state">,
  places: readonly CodPlaceRule[],
) {
  // The longest matching prefix decides, as with the delivery rules (common/delivery-check.ts).
  let pin: CodPlaceRule | undefined;
  for (const rule of places) {
    if (
      rule.kind === "pin" &&
      facts.pin.startsWith(rule.value) &&
      rule.value.length > (pin?.value.length ?? 0)
    ) {
      pin = rule;
    }
  }
  const district = facts.district
    ? places.find((rule) => rule.kind === "district" && sameName(rule.value, facts.district as string))
    : undefined;
  const state = facts.state
    ? places.find((rule) => rule.kind === "state" && sameName(rule.value, facts.state as string))
    : undefined;
  return [pin, district, state].filter((rule): rule is CodPlaceRule => Boolean(rule));
}

/**
 * Whether cash on delivery is offered for this order, and if not, the sentence the shopper is shown. The
 * strictest rule wins: switched off, then a place with COD off (a PIN's first), then the smallest cap that the total exceeds,
 * then the customer's returns. Caps compare the order's total (goods, discount and shipping), in paise.
 */
export function evaluateCod(rules: CodRules, facts: CodFacts): CodDecision {
  if (!rules.enabled) {
    return {
      available: false,
      rule: "off",
      reason: "Cash on delivery is not available at the moment.",
      maxPaise: null,
    };
  }
  const places = placeRulesFor(facts, rules.places);
  const off = places.find((rule) => rule.maxPaise === null);
  // A shopper knows their PIN, not the owner's prefixes: a PIN rule names the PIN typed.
  if (off?.kind === "pin") {
    return {
      available: false,
      rule: "pin_no_cod",
      reason: `Cash on delivery is not available for PIN code ${facts.pin}.`,
      maxPaise: null,
      where: "this PIN code",
    };
  }
  if (off) {
    return {
      available: false,
      rule: "place",
      reason: `Cash on delivery is not available for ${PLACE_WORDS[off.kind](off.value)}.`,
      maxPaise: null,
      where: PLACE_WORDS[off.kind](off.value),
    };
  }
  type Cap = { rule: CodRuleName; maxPaise: Paise; reason: string };
  const caps: Cap[] = places.map((rule) => ({
    rule: "place",
    maxPaise: rule.maxPaise as Paise,
    reason: `Cash on delivery for ${PLACE_WORDS[rule.kind](rule.value)} is available for orders up to ${formatRupees(rule.maxPaise as Paise)}.`,
  }));
  caps.push({
    rule: "max_order",
    maxPaise: rules.maxOrderPaise,
    reason: `Cash on delivery is available for orders up to ${formatRupees(rules.maxOrderPaise)}.`,
  });
  if (rules.firstOrderMaxPaise !== null && facts.earlierDelivered === 0) {
    caps.push({
      rule: "first_order",
      maxPaise: rules.firstOrderMaxPaise,
      reason: `Cash on delivery is available for a first order up to ${formatRupees(rules.firstOrderMaxPaise)}. Pay online for this one, and cash on delivery is open for larger orders after your first delivery.`,
    });
  }
  const exceeded = caps
    .filter((cap) => facts.totalPaise > cap.maxPaise)
    .sort((a, b) => a.maxPaise - b.maxPaise)[0];
  if (exceeded) return { available: false, ...exceeded };
  if (
    rules.prepaidOnlyAfterRtos !== null &&
    facts.earlierRtos !== null &&
    facts.earlierRtos >= rules.prepaidOnlyAfterRtos
  ) {
    return {
      available: false,
      rule: "rto_history",
      reason:
        "Earlier cash-on-delivery parcels to this account, mobile number or address came back undelivered, so this order needs to be paid online.",
      maxPaise: null,
    };
  }
  return { available: true };
}

// ---- What the owner sends

const paise = z
  .number()
  .int("must be whole paise")
  .min(0, "must be 0 or more")
  .max(100_000_000, "is too large");

export const codSettingsSchema = z
  .object({
    enabled: z.boolean(),
    maxOrderPaise: paise,
    firstOrderMaxPaise: paise.nullable(),
    prepaidOnlyAfterRtos: z
      .number()
      .int()
      .min(1, "must be 1 or more")
      .max(100, "must be at most 100")
      .nullable(),
  })
  .strict();

export const codPlaceRuleSchema = z
  .object({
    kind: z.enum(COD_PLACE_KINDS, { error: "must be pin, district or state" }),
    value: plainText().trim().min(1, "is required").max(80, "must be at most 80 characters"),
    maxPaise: paise.nullable(),
    note: plainText().trim().max(200, "must be at most 200 characters").default(""),
  })
  .strict()
  .superRefine((rule, context) => {
    if (rule.kind === "pin" && !/^[1-9][0-9]{0,5}$/.test(rule.value)) {
      context.addIssue({
        code: "custom",
        path: ["value"],
        message: "must be a PIN code or its first 1-5 digits",
      });
    }
    if (rule.kind === "state" && !(INDIAN_STATE_NAMES as readonly string[]).includes(rule.value)) {
      context.addIssue({
        code: "custom",
        path: ["value"],
        message: "must be the name of a state or union territory",
      });
    }
  });
export type CodPlaceRuleInput = z.infer<typeof codPlaceRuleSchema>;

export const codPlaceRuleKeySchema = z
  .object({
    kind: z.enum(COD_PLACE_KINDS, { error: "must be pin, district or state" }),
    value: plainText().trim().min(1, "is required").max(80, "must be at most 80 characters"),
  })
  .strict();

/** The admin's view of the rules: the settings and the place rules. */
export type AdminCodRules = {
  settings: CodSettings & { updatedAt: string | null };
  /** The reward for paying online, priced at checkout (common/prepaid-incentive.ts). */
  prepaidIncentive: PrepaidIncentive;
  places: (CodPlaceRule & { updatedAt: string })[];
};
