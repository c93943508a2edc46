import { ContactMessageForm } from "../features/contact/contact-message-form.tsx";

export function Component() {
  return (
    <section aria-labelledby="contact-heading" className="mx-auto max-w-3xl">
      <h1 id="contact-heading" className="mb-2 font-serif text-2xl font-semibold">
        Contact us
      </h1>
      <p className="mb-6 text-stone-700 dark:text-stone-300">
        Questions about an order, a product or a delivery? Write to us and we will reply by e-mail.
      </p>
      <ContactMessageForm />
    </section>
  );
}
