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

/**
 * The sites an "Other" courier's tracking link may point at (each domain and its subdomains): couriers and
 * tracking services that ship in India. A shopper trusts a link the shop shows in their order and mail as
 * much as the shop itself, so staff may not send them to any address they like (docs/decisions/051). A
 * courier missing here is one line to add; until then its parcels are shipped with the number alone.
 */
export const OTHER_COURIER_TRACKING_DOMAINS = [
  "shadowfax.in",
  "ecomexpress.in",
  "shiprocket.in",
  "shiprocket.co",
  "gati.com",
  "tpcindia.com",
  "trackon.in",
  "shreemaruti.com",
  "smartr.in",
  "dhl.co.in",
  "dhl.com",
  "fedex.com",
  "aramex.com",
  "ups.com",
  "nimbuspost.com",
  "ithinklogistics.com",
  "shipway.com",
  "aftership.com",
  "17track.net",
  // The listed couriers' own sites: a parcel handed on under another number is followed there too.
  "delhivery.com",
  "bluedart.com",
  "dtdc.in",
  "dtdc.com",
  "ekartlogistics.com",
  "xpressbees.com",
  "indiapost.gov.in",
] as const;

/** An https address on one of those sites, with no user name or password in it to disguise its host. */
export function isKnownTrackingUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username || url.password || url.port) return false;
  const host = url.hostname.toLowerCase();
  return OTHER_COURIER_TRACKING_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

const isCourier = (name: string): name is Courier => (COURIERS as readonly string[]).includes(name);

/**
 * Where the customer follows the parcel: built from the courier and tracking number; for "Other" (or a
 * courier named before the list existed) the address staff gave, only on a known tracking site (a link
 * stored before that rule, to anywhere else, is not shown), else none.
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
  return givenUrl && isKnownTrackingUrl(givenUrl) ? givenUrl : null;
}
