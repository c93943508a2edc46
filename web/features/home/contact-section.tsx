import { phoneHref, type ShopConfig } from "../../../common/shop-config.ts";
import { HeartIcon, LeafIcon, MailIcon, ShieldIcon, TruckIcon } from "../../components/info-icons.tsx";
import { ScrollSection } from "../../components/scroll-section.tsx";
import { SectionHeading } from "../../components/section-heading.tsx";
import { SECTION_IDS } from "../../lib/go-to-section.ts";
import { ContactForm } from "../contact/contact-form.tsx";

const BENEFITS = [
  {
    Icon: LeafIcon,
    title: "100% natural",
    text: "Whole herbs, grains and cold-pressed oils, with every ingredient listed.",
  },
  {
    Icon: HeartIcon,
    title: "Real people, real answers",
    text: "Ask us what suits your hair, skin or family: a person, not a bot, replies.",
  },
  {
    Icon: TruckIcon,
    title: "Shipped in 3-5 days",
    text: "Every order is handed to a registered courier or speed post within 3-5 days.",
  },
  {
    Icon: ShieldIcon,
    title: "Easy returns",
    text: "Report a damaged item within 6-8 days of delivery; approved refunds take 6-8 days.",
  },
];

/** Four reasons to get in touch, and the contact form. */
export function ContactSection({ config }: { config: ShopConfig }) {
  return (
    <ScrollSection id={SECTION_IDS.contact} className="bg-brand-50 focus:outline-none dark:bg-stone-900/60">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
        <SectionHeading id="contact-heading" eyebrow="We are listening" title="Get in touch">
          A question about an ingredient, an order or a gift? Send us a message.
        </SectionHeading>
        <div className="grid gap-10 lg:grid-cols-[1fr_1.3fr]">
          <div>
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-1 xl:grid-cols-2">
              {BENEFITS.map(({ Icon, title, text }) => (
                <li key={title} className="flex gap-3 rounded-2xl bg-white p-4 shadow-sm dark:bg-stone-900">
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-brand-800 dark:bg-brand-900 dark:text-brand-100">
                    <Icon />
                  </span>
                  <span>
                    <span className="block font-semibold">{title}</span>
                    <span className="block text-sm text-stone-600 dark:text-stone-400">{text}</span>
                  </span>
                </li>
              ))}
            </ul>
            <p className="mt-6 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-700 dark:text-stone-300">
              <MailIcon className="size-4" />
              Prefer to call or write?{" "}
              <a className="font-semibold underline underline-offset-2" href={phoneHref(config.phone)}>
                {config.phone}
              </a>
              or
              <a className="font-semibold underline underline-offset-2" href={`mailto:${config.email}`}>
                {config.email}
              </a>
            </p>
          </div>
          <div className="rounded-3xl bg-white p-5 shadow-sm sm:p-8 dark:bg-stone-900">
            <ContactForm />
          </div>
        </div>
      </div>
    </ScrollSection>
  );
}
