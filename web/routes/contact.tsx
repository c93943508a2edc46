import { useLoaderData } from "react-router";
import { ContactForm } from "../features/contact/contact-form.tsx";
import { ContentPageView, type loader } from "./content-page.tsx";

export { handle, loader } from "./content-page.tsx";

/** The contact text from content/pages/contact.md, and the contact form below it. */
export function Component() {
  return (
    <ContentPageView page={useLoaderData<typeof loader>()}>
      <section aria-labelledby="contact-form-heading" className="mt-10">
        <h2 id="contact-form-heading" className="mb-4 font-serif text-xl font-semibold">
          Write to us
        </h2>
        <ContactForm />
      </section>
    </ContentPageView>
  );
}
