import type { ShopAddress, ShopDetails } from "../../common/schemas/shop.ts";

/** One line, as a letterhead prints it: "12 Lake Road, Adyar, Chennai 600020, Tamil Nadu". */
export function formatShopAddress(address: ShopAddress): string {
  return [address.line1, address.line2, `${address.city} ${address.pin}`, address.state]
    .filter(Boolean)
    .join(", ");
}

const termClass = "text-stone-500 dark:text-stone-400";

/**
 * Who the seller is, as India's Consumer Protection (E-Commerce) Rules ask a shop to say: legal name,
 * registered address, contact, GSTIN, FSSAI licence and the grievance officer. What the owner has not
 * entered yet is left out rather than shown empty.
 */
export function SellerDetails({ details }: { details: ShopDetails }) {
  const officer = details.grievanceOfficer;
  return (
    <section aria-labelledby="seller-details-heading" className="mt-10">
      <h2 id="seller-details-heading" className="mb-4 font-serif text-xl font-semibold">
        Seller details
      </h2>
      <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[12rem_1fr]">
        <dt className={termClass}>Legal name</dt>
        <dd>{details.legalName}</dd>
        {details.address && (
          <>
            <dt className={termClass}>Registered address</dt>
            <dd>{formatShopAddress(details.address)}</dd>
          </>
        )}
        <dt className={termClass}>Phone</dt>
        <dd>{details.phone}</dd>
        <dt className={termClass}>E-mail</dt>
        <dd className="break-all">{details.email}</dd>
        {details.gstin && (
          <>
            <dt className={termClass}>GSTIN</dt>
            <dd className="font-mono">{details.gstin}</dd>
          </>
        )}
        {details.fssaiLicence && (
          <>
            <dt className={termClass}>FSSAI licence no.</dt>
            <dd className="font-mono">{details.fssaiLicence}</dd>
          </>
        )}
        <dt className={termClass}>Grievance Officer</dt>
        <dd>
          {officer.name && <span className="block">{officer.name}</span>}
          <a href={`mailto:${officer.email}`} className="break-all underline underline-offset-2">
            {officer.email}
          </a>
        </dd>
      </dl>
    </section>
  );
}

/** The footer's small print: the same facts on one or two lines. */
export function SellerLine({ details }: { details: ShopDetails }) {
  const parts = [
    details.legalName,
    details.address && `Registered office: ${formatShopAddress(details.address)}`,
    details.gstin && `GSTIN ${details.gstin}`,
    details.fssaiLicence && `FSSAI Lic. No. ${details.fssaiLicence}`,
    `Grievance Officer: ${details.grievanceOfficer.name ? `${details.grievanceOfficer.name}, ` : ""}${details.grievanceOfficer.email}`,
  ].filter(Boolean);
  return (
    <p data-testid="seller-line" className="text-xs leading-relaxed text-stone-400">
      {parts.join(" · ")}
    </p>
  );
}
