import type { Locator, Page } from "playwright-core";

/** The shop's forms as a person fills them in, for browser tests whose subject is what comes after. */

/** A shopper opens the page of the product `slug` and adds one to the cart: the page says `name` was added. */
export async function addToCart(page: Page, slug: string, name: string) {
  await page.goto(`/product/${slug}`);
  await page.getByRole("button", { name: "Add to cart" }).click();
  await page.getByText(`${name} was added to cart!`).waitFor();
}

/** Types each value into the field its label names, in order; a field without a value (or empty) is not touched. */
async function typeByLabel(form: Locator, fields: [label: string, value: string | undefined][]) {
  for (const [label, value] of fields) if (value) await form.getByLabel(label).fill(value);
}

/** What a shopper types into the delivery address form (web/features/orders/address-form.tsx). */
export type TypedAddress = {
  name: string;
  phone: string;
  line1: string;
  line2?: string;
  city?: string;
  pin: string;
};

/**
 * Types `address` into a delivery address form as a shopper does, field by field: the city before the PIN
 * code, which fills district and state from India Post's directory but keeps a typed city. The state, a
 * list, is the caller's to pick.
 */
export async function typeAddress(form: Locator, address: TypedAddress) {
  await typeByLabel(form, [
    ["Full name", address.name],
    ["Mobile number", address.phone],
    ["House, flat, building", address.line1],
    ["Street, area, landmark (optional)", address.line2],
    ["City or town", address.city],
    ["PIN code", address.pin],
  ]);
}

/**
 * A guest at checkout gives `email` and `address`, picks its state and uses it: the page then offers to
 * change the address.
 */
export async function enterGuestAddress(
  page: Page,
  email: string,
  address: TypedAddress & { state: string },
) {
  await page.getByLabel("E-mail").fill(email);
  const form = page.getByRole("form", { name: "New delivery address" });
  await typeAddress(form, address);
  await form.getByLabel("State or union territory").selectOption(address.state);
  await form.getByRole("button", { name: "Use this address" }).click();
  await page.getByRole("button", { name: "Change" }).waitFor();
}

/** The Shop details form's labels (/admin/shop), in its order; the state, a list, is picked apart. */
const SHOP_DETAIL_LABELS = {
  legalName: "Legal name",
  addressLine1: "Registered address",
  addressLine2: "Address, second line (optional)",
  city: "City",
  pin: "PIN code",
  gstin: "GSTIN",
  fssaiLicence: "FSSAI licence number",
  grievanceOfficerName: "Grievance officer's name",
  grievanceOfficerEmail: "Grievance officer's e-mail",
};

/**
 * Types `details` into the owner's Shop details form in the form's order and picks the state from its list
 * last; a field `details` leaves out is not touched.
 */
export async function typeShopDetails(
  form: Locator,
  details: Partial<Record<keyof typeof SHOP_DETAIL_LABELS | "state", string>>,
) {
  await typeByLabel(
    form,
    Object.entries(SHOP_DETAIL_LABELS).map(([field, label]) => [
      label,
      details[field as keyof typeof details],
    ]),
  );
  if (details.state) await form.getByLabel("State").selectOption(details.state);
}
