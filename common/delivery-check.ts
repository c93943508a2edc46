import { type CodDecision, type CodRules, evaluateCod } from "./cod-rules.ts";
import { type DeliveryEstimate, estimateDelivery, formatEstimateDate } from "./delivery-estimate.ts";
import type { IndianState } from "./india.ts";
import { formatRupees, type Paise } from "./money.ts";

export const PIN_FORMAT_MESSAGE = "Enter the 6-digit PIN code";
export const UNKNOWN_PIN_MESSAGE = "We could not find this PIN code. Please check it.";

/** Where a PIN is, from India Post's directory (server/delivery/pin-directory.ts). */
export type PinPlace = {
  pin: string;
  /** The directory has no city: the district the PIN's post offices are in is the nearest it gives. */
  city: string;
  district: string;
  state: IndianState;
  /** Every state the PIN reaches: two for the few PINs on a border. */
  states: IndianState[];
};

/**
 * What the owner says of a PIN or a prefix of PINs, for delivery only: cash on delivery by PIN is one of the
 * COD rules (common/cod-rules.ts).
 */
export const DELIVERY_RULE_KINDS = ["not_served", "served"] as const;
export type DeliveryRuleKind = (typeof DELIVERY_RULE_KINDS)[number];

export const DELIVERY_RULE_LABELS: Record<DeliveryRuleKind, string> = {
  not_served: "Not served",
  served: "Served as usual",
};

export type DeliveryRule = { prefix: string; rule: DeliveryRuleKind; note: string };

/** The rule that decides for a PIN: the one with the longest matching prefix, so a PIN can be an exception to its range. */
export function ruleForPin<T extends Pick<DeliveryRule, "prefix">>(
  pin: string,
  rules: readonly T[],
): T | null {
  let best: T | null = null;
  for (const rule of rules) {
    if (pin.startsWith(rule.prefix) && (!best || rule.prefix.length > best.prefix.length)) best = rule;
  }
  return best;
}

/** The two switches the checkout summary shows beside the choice of payment. */
export type CodSettings = { enabled: boolean; maxOrderPaise: Paise };

export const notServedMessage = (place: Pick<PinPlace, "pin" | "city" | "state">) =>
  `Sorry, we do not deliver to PIN code ${place.pin} (${place.city}, ${place.state}) yet.`;

export type DeliveryCheck = {
  pin: string;
  place: Pick<PinPlace, "city" | "district" | "state">;
  served: boolean;
  /** When it would arrive; null when the PIN is not served. */
  estimate: DeliveryEstimate | null;
  cod: { available: boolean; reason: string | null };
  /** "Delivers to Chennai, Tamil Nadu by Thu, 27 Nov; cash on delivery available" */
  message: string;
};

/** The answer to "Check delivery", from the rules the checkout and the order use. */
export function checkDelivery(input: {
  place: PinPlace;
  rule: Pick<DeliveryRule, "rule"> | null;
  codRules: CodRules;
  /** What one of the item costs delivered, to hold against the cash-on-delivery limit. */
  totalPaise: Paise;
  now: Date;
}): DeliveryCheck {
  const { place, rule } = input;
  const base = {
    pin: place.pin,
    place: { city: place.city, district: place.district, state: place.state },
  };
  if (rule?.rule === "not_served") {
    return {
      ...base,
      served: false,
      estimate: null,
      cod: { available: false, reason: null },
      message: notServedMessage(place),
    };
  }
  const estimate = estimateDelivery(input.now);
  // Nobody is known yet here: the customer's own rules (first order, returns) are applied when the order is placed.
  const decision = evaluateCod(input.codRules, {
    totalPaise: input.totalPaise,
    pin: place.pin,
    district: place.district,
    state: place.state,
    earlierDelivered: null,
    earlierRtos: null,
  });
  const reason = decision.available ? null : decision.reason;
  const codText = decision.available
    ? "cash on delivery available"
    : `cash on delivery not available${codWhy(decision)}`;
  return {
    ...base,
    served: true,
    estimate,
    cod: { available: reason === null, reason },
    message: `Delivers to ${place.city}, ${place.state} by ${formatEstimateDate(estimate.to)}; ${codText}`,
  };
}

/** The few words the delivery line adds to "cash on delivery not available": where, or above what. */
function codWhy(decision: Extract<CodDecision, { available: false }>): string {
  if (decision.maxPaise !== null) return ` above ${formatRupees(decision.maxPaise)}`;
  return decision.where ? ` for ${decision.where}` : "";
}
