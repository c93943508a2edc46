import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { type CodRuleName, type CodRules, evaluateCod } from "../common/cod-rules.ts";
import { formatRupees, type Paise } from "../common/money.ts";

/**
 * npm run bench -- cod-simulation: what the owner's COD rules would have done to a year of cash-on-delivery
 * orders, before they are turned on. The orders are generated (a seeded generator, so every run prints the
 * same table) with a chance of coming back that depends on the PIN's city, the order's value, the customer's
 * past returns and whether the order was confirmed; each order is then put through `evaluateCod`, the
 * function checkout uses, with the rules off and on. Both runs use the same draws per order, so the
 * difference is the rules' alone.
 *
 * The rates are issue 29's published figures (Shipway FY25): about 26% of COD parcels come back against under
 * 2% of prepaid ones, Patna 35%, Vadodara 18%. The other cities, the value and history effects, the share of
 * shoppers who pay online when cash is refused, and the courier's rates are assumptions, printed below.
 */

const SEED = 2026;
const ORDERS = 12_000;
const CUSTOMERS = 4_000;
/** A shopper refused cash pays online this often; otherwise the sale is lost (an assumption). */
const PREPAID_TAKE_UP = 0.45;
const PREPAID_RTO = 0.015;
/** What the courier charges to take a parcel out, and the same again to bring it back. */
const FORWARD_PAISE = 7_000;
const RETURN_PAISE = 7_000;
/** Orders confirmed by the shopper come back less often; those never confirmed, more (mean unchanged). */
const CONFIRMED_SHARE = 0.75;
const CONFIRMED_FACTOR = 0.75;
const UNCONFIRMED_FACTOR = 1.75;

type City = { name: string; pin: string; district: string; state: string; rto: number; share: number };
const CITIES: City[] = [
  { name: "Patna", pin: "800001", district: "Patna", state: "Bihar", rto: 0.35, share: 0.08 },
  { name: "Vadodara", pin: "390001", district: "Vadodara", state: "Gujarat", rto: 0.18, share: 0.08 },
  { name: "Mumbai", pin: "400001", district: "Mumbai", state: "Maharashtra", rto: 0.21, share: 0.14 },
  { name: "Delhi", pin: "110001", district: "New Delhi", state: "Delhi", rto: 0.24, share: 0.14 },
  { name: "Bengaluru", pin: "560038", district: "Bangalore", state: "Karnataka", rto: 0.2, share: 0.12 },
  { name: "Lucknow", pin: "226001", district: "Lucknow", state: "Uttar Pradesh", rto: 0.31, share: 0.1 },
  { name: "Kolkata", pin: "700001", district: "Kolkata", state: "West Bengal", rto: 0.27, share: 0.1 },
  { name: "Jaipur", pin: "302001", district: "Jaipur", state: "Rajasthan", rto: 0.28, share: 0.08 },
  {
    name: "Guwahati",
    pin: "781001",
    district: "Kamrup Metropolitan",
    state: "Assam",
    rto: 0.33,
    share: 0.06,
  },
  { name: "Chennai", pin: "600001", district: "Chennai", state: "Tamil Nadu", rto: 0.19, share: 0.1 },
];

/** The shop as it is: cash on delivery up to the environment's ₹5,000. */
const RULES_OFF: CodRules = {
  enabled: true,
  maxOrderPaise: 500_000,
  firstOrderMaxPaise: null,
  prepaidOnlyAfterRtos: null,
  places: [],
};

/** A set an owner might try: what the city figures and a customer's record suggest. */
const RULES_ON: CodRules = {
  enabled: true,
  maxOrderPaise: 500_000,
  firstOrderMaxPaise: 250_000,
  prepaidOnlyAfterRtos: 2,
  places: [
    { kind: "district", value: "Patna", maxPaise: 100_000, note: "35% of COD parcels come back" },
    { kind: "state", value: "Assam", maxPaise: 150_000, note: "" },
  ],
};

type Order = {
  customer: number;
  city: City;
  totalPaise: Paise;
  confirmed: boolean;
  /** Draws fixed per order, shared by both runs. */
  returnDraw: number;
  takeUpDraw: number;
};

function generate() {
  const rng = xoroshiro128plus(SEED);
  const next = () => uniformFloat64(rng);
  const pickCity = () => {
    let left = next();
    for (const city of CITIES) {
      left -= city.share;
      if (left < 0) return city;
    }
    return CITIES[CITIES.length - 1] as City;
  };
  // One in seven shoppers refuses parcels far more often than the rest; the mean stays the city's rate.
  const customers = Array.from({ length: CUSTOMERS }, () => ({
    city: pickCity(),
    risk: next() < 0.15 ? 2.2 : 0.79,
  }));
  const orders: Order[] = [];
  for (let index = 0; index < ORDERS; index++) {
    // A few shoppers order often: the square skews the pick toward the first customers.
    const customer = Math.floor(next() ** 2 * CUSTOMERS);
    // Goods of ₹300 to about ₹5,000, most under ₹1,500, plus ₹60 shipping below the free-shipping line.
    const goods = Math.round((300 + 4_700 * next() ** 2.5) / 10) * 1_000;
    orders.push({
      customer,
      city: (customers[customer] as { city: City }).city,
      totalPaise: goods + (goods < 99_900 ? 6_000 : 0),
      confirmed: next() < CONFIRMED_SHARE,
      returnDraw: next(),
      takeUpDraw: next(),
    });
  }
  return { orders, risks: customers.map((each) => each.risk) };
}

/** The chance a COD parcel comes back: the city's rate, moved by value, the customer's record and confirmation. */
function returnChance(order: Order, risk: number, pastReturns: number) {
  const value = Math.min(1.3, Math.max(0.85, 1 + (0.06 * (order.totalPaise - 150_000)) / 100_000));
  const history = Math.min(1.5, 1 + 0.25 * pastReturns);
  const confirmation = order.confirmed ? CONFIRMED_FACTOR : UNCONFIRMED_FACTOR;
  return Math.min(0.9, order.city.rto * risk * value * history * confirmation);
}

type Outcome = {
  cod: number;
  flagged: number;
  flaggedBy: Partial<Record<CodRuleName, number>>;
  prepaid: number;
  lost: number;
  lostPaise: number;
  returns: number;
  /** Of the returns, parcels paid online. */
  prepaidReturns: number;
  shipped: number;
  costPaise: number;
};

function run(rules: CodRules, orders: Order[], risks: number[]): Outcome {
  const delivered = new Map<number, number>();
  const returned = new Map<number, number>();
  const outcome: Outcome = {
    cod: 0,
    flagged: 0,
    flaggedBy: {},
    prepaid: 0,
    lost: 0,
    lostPaise: 0,
    returns: 0,
    prepaidReturns: 0,
    shipped: 0,
    costPaise: 0,
  };
  for (const order of orders) {
    const pastReturns = returned.get(order.customer) ?? 0;
    const decision = evaluateCod(rules, {
      totalPaise: order.totalPaise,
      pin: order.city.pin,
      district: order.city.district,
      state: order.city.state,
      earlierDelivered: delivered.get(order.customer) ?? 0,
      earlierRtos: pastReturns,
    });
    let comesBack: boolean;
    if (decision.available) {
      outcome.cod++;
      comesBack = order.returnDraw < returnChance(order, risks[order.customer] ?? 1, pastReturns);
    } else {
      outcome.flagged++;
      outcome.flaggedBy[decision.rule] = (outcome.flaggedBy[decision.rule] ?? 0) + 1;
      if (order.takeUpDraw >= PREPAID_TAKE_UP) {
        outcome.lost++;
        outcome.lostPaise += order.totalPaise;
        continue;
      }
      outcome.prepaid++;
      comesBack = order.returnDraw < PREPAID_RTO;
    }
    outcome.shipped++;
    if (comesBack) {
      outcome.returns++;
      if (!decision.available) outcome.prepaidReturns++;
      outcome.costPaise += FORWARD_PAISE + RETURN_PAISE;
      returned.set(order.customer, pastReturns + 1);
    } else {
      delivered.set(order.customer, (delivered.get(order.customer) ?? 0) + 1);
    }
  }
  return outcome;
}

const percent = (part: number, whole: number) => `${whole ? ((100 * part) / whole).toFixed(1) : "0.0"}%`;

export default async function codSimulation() {
  const started = performance.now();
  const { orders, risks } = generate();
  const off = run(RULES_OFF, orders, risks);
  const on = run(RULES_ON, orders, risks);
  const ms = performance.now() - started;

  const rows: [string, string, string][] = [
    ["COD orders wanted", String(ORDERS), String(ORDERS)],
    ["orders flagged (cash refused)", String(off.flagged), String(on.flagged)],
    ["  paid online instead (prepaid taken up)", String(off.prepaid), String(on.prepaid)],
    ["  lost (shopper left)", String(off.lost), String(on.lost)],
    ["parcels shipped", String(off.shipped), String(on.shipped)],
    ["returns to origin", String(off.returns), String(on.returns)],
    ["RTO rate of shipped parcels", percent(off.returns, off.shipped), percent(on.returns, on.shipped)],
    [
      "RTO rate of COD parcels",
      percent(off.returns - off.prepaidReturns, off.cod),
      percent(on.returns - on.prepaidReturns, on.cod),
    ],
    ["shipping paid on returns", formatRupees(off.costPaise), formatRupees(on.costPaise)],
    ["value of sales lost", formatRupees(off.lostPaise), formatRupees(on.lostPaise)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(
    `A year of ${ORDERS} generated COD orders from ${CUSTOMERS} customers (seed ${SEED}), rules off and on, ${ms.toFixed(0)} ms`,
  );
  console.log(`${"".padEnd(width)}  ${"rules off".padStart(12)}  ${"rules on".padStart(12)}`);
  for (const [label, a, b] of rows)
    console.log(`${label.padEnd(width)}  ${a.padStart(12)}  ${b.padStart(12)}`);
  console.log(
    `returns avoided: ${off.returns - on.returns}; shipping cost saved: ${formatRupees(off.costPaise - on.costPaise)}`,
  );
  console.log(
    `flagged by rule: ${Object.entries(on.flaggedBy)
      .map(([rule, count]) => `${rule} ${count}`)
      .join(", ")}`,
  );
  console.log(
    `rules on: Patna district capped ${formatRupees(100_000)}, Assam ${formatRupees(150_000)}, first order ${formatRupees(250_000)}, prepaid only after 2 returns, shop-wide ${formatRupees(500_000)}`,
  );
  console.log(
    `assumed: ${PREPAID_TAKE_UP * 100}% of refused shoppers pay online, prepaid RTO ${PREPAID_RTO * 100}%, courier ${formatRupees(FORWARD_PAISE)} out + ${formatRupees(RETURN_PAISE)} back, ${CONFIRMED_SHARE * 100}% confirmed`,
  );
}
