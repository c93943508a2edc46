import { useLoaderData } from "react-router";
import { SellerDetails } from "../components/seller-details.tsx";
import { ContactForm } from "../features/contact/contact-form.tsx";
import { useShopData } from "../lib/shop-data.ts";
import { ContentPageView, type loader } from "./content-page.tsx";

export { handle, loader } from "./content-page.tsx";

/** The contact text the owner keeps (the page "contact"), who the seller is, and the contact form below. */
export function Component() {
  const { config } = useShopData();
  return (
    <ContentPageView page={useLoaderData<typeof loader>()}>
      <SellerDetails details={config.details} />
      <section aria-labelledby="contact-form-heading" className="mt-10">
        <h2 id="contact-form-heading" className="mb-4 font-serif text-xl font-semibold">
          Write to us
        </h2>
        <ContactForm />
      </section>
    </ContentPageView>
  );
}
