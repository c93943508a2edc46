/** Money is integer paise everywhere but on screen. */
export type Paise = number;

export const rupeesToPaise = (rupees: number): Paise => Math.round(rupees * 100);

/**
 * Rupees as typed into an admin form, as the paise to send. A figure that is not whole paise is sent as it
 * is, so the server names the field rather than the form rounding it silently; text that is no number at
 * all is sent as text, and an empty field as null.
 */
export function typedRupeesAsPaise(text: string): unknown {
  const trimmed = text.trim().replace(/,/g, "");
  if (trimmed === "") return null;
  const rupees = Number(trimmed);
  if (!Number.isFinite(rupees)) return trimmed;
  const paise = rupees * 100;
  const whole = Math.round(paise);
  return Math.abs(paise - whole) < 1e-6 ? whole : paise;
}

const wholeRupees = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  maximumFractionDigits: 0,
});
const rupeesAndPaise = new Intl.NumberFormat("en-IN", {
  style: "currency",
  currency: "INR",
  minimumFractionDigits: 2,
});

/** ₹1,199 for whole rupees, ₹1,199.50 otherwise. */
export function formatRupees(paise: Paise): string {
  return paise % 100 === 0 ? wholeRupees.format(paise / 100) : rupeesAndPaise.format(paise / 100);
}
