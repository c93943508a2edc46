/** The couriers staff ship with; "Other" is any courier not listed, with the tracking page staff give. */
export const COURIERS = [
  "Delhivery",
  "Blue Dart",
  "DTDC",
  "Ekart",
  "Xpressbees",
  "India Post",
  "Other",
] as const;
export type Courier = (typeof COURIERS)[number];

/** Letters, digits and hyphens: what the listed couriers print on their air waybills. */
export const TRACKING_NUMBER_PATTERN = /^[A-Za-z0-9-]{4,40}$/;

/**
 * Each courier's public tracking page for one consignment. India Post's page takes no number in its
 * address, so the customer is shown the number next to the link.
 */
const TRACKING_PAGES: Record<Exclude<Courier, "Other">, (number: string) => string> = {
  Delhivery: (n) => `https://www.delhivery.com/track/package/${n}`,
  "Blue Dart": (n) => `https://www.bluedart.com/web/guest/trackdartresult?trackFor=0&trackNo=${n}`,
  DTDC: (n) => `https://www.dtdc.in/tracking/tracking_results.asp?Ttype=awb_no&strCnno=${n}`,
  Ekart: (n) => `https://ekartlogistics.com/shipmenttrack/${n}`,
  Xpressbees: (n) => `https://www.xpressbees.com/shipment/tracking?awbNo=${n}`,
  "India Post": () => "https://www.indiapost.gov.in/_layouts/15/dop.portal.tracking/trackconsignment.aspx",
};

const isCourier = (name: string): name is Courier => (COURIERS as readonly string[]).includes(name);

/**
 * Where the customer follows the parcel: built from the courier and tracking number; for "Other" (or a
 * courier named before the list existed) only the https address staff gave, else none.
 */
export function trackingUrl(
  courier: string | null,
  trackingNumber: string | null,
  givenUrl: string | null = null,
): string | null {
  if (!courier || !trackingNumber) return null;
  if (isCourier(courier) && courier !== "Other") {
    if (!TRACKING_NUMBER_PATTERN.test(trackingNumber)) return null;
    return TRACKING_PAGES[courier](encodeURIComponent(trackingNumber));
  }
  return givenUrl && isHttpsUrl(givenUrl) ? givenUrl : null;
}

/** An absolute https address: the only kind a customer is sent to from the shop's pages and mail. */
export function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}
