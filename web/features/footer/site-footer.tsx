import { useState } from "react";
import { Link } from "react-router";
import { phoneHref } from "../../../common/shop-config.ts";
import {
  FacebookIcon,
  InstagramIcon,
  MailIcon,
  PhoneIcon,
  TwitterIcon,
  YoutubeIcon,
} from "../../components/info-icons.tsx";
import { SellerLine } from "../../components/seller-details.tsx";
import { SECTION_IDS, useGoToSection } from "../../lib/go-to-section.ts";
import { useShopData } from "../../lib/shop-data.ts";
import { ReturnsDialog, ShippingDialog } from "./care-dialogs.tsx";

const SOCIAL = [
  { label: "Facebook", Icon: FacebookIcon },
  { label: "Instagram", Icon: InstagramIcon },
  { label: "YouTube", Icon: YoutubeIcon },
  { label: "Twitter", Icon: TwitterIcon },
];

const CATEGORY_LINKS = [
  { label: "Hair care", to: `/?category=haircare#${SECTION_IDS.featured}` },
  { label: "Skin care", to: `/?category=skincare#${SECTION_IDS.featured}` },
  { label: "Body care", to: `/?category=body#${SECTION_IDS.featured}` },
  { label: "Nutrition", to: `/?category=nutrition#${SECTION_IDS.featured}` },
  { label: "Combos & Gifting", to: `/#${SECTION_IDS.combos}` },
];

const POLICY_LINKS = [
  { label: "Privacy Policy", to: "/privacy" },
  { label: "Terms & Conditions", to: "/terms" },
  { label: "Cookie Policy", to: "/cookie-policy" },
  { label: "Shipping & Delivery", to: "/shipping-delivery" },
  { label: "Refund Policy", to: "/cancellation-refund" },
];

const itemClass =
  "inline-flex items-center gap-2 rounded text-left text-stone-300 hover:text-white hover:underline underline-offset-2";

function Column({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h2 className="mb-3 text-sm font-semibold tracking-wider text-brand-100 uppercase">{title}</h2>
      <ul className="space-y-2 text-sm">{children}</ul>
    </div>
  );
}

export function SiteFooter() {
  const { config } = useShopData();
  const goToSection = useGoToSection();
  const [popUp, setPopUp] = useState<"shipping" | "returns" | null>(null);
  const close = () => setPopUp(null);

  return (
    <footer className="mt-auto bg-stone-900 text-stone-300 dark:bg-black">
      <div className="mx-auto grid max-w-7xl grid-cols-2 gap-x-6 gap-y-10 px-4 py-12 lg:grid-cols-[1.5fr_1fr_1fr_1fr_1fr]">
        <div className="col-span-2 lg:col-span-1">
          <p className="flex items-center gap-2 font-serif text-xl font-semibold text-white">
            {/* The owner's logo, as the header shows it (issue 41: the footer kept the leaf after a new logo). */}
            <img
              src={config.brand.logo?.small ?? "/favicon.svg"}
              width={32}
              height={32}
              alt=""
              className="size-8 rounded"
            />
            {config.shopName}
          </p>
          <p className="mt-3 max-w-xs text-sm leading-relaxed">
            Hair oils, face packs, bath powders and health mixes made the way Indian households have made them
            for generations: from whole herbs, grains and cold-pressed oils, in small batches.
          </p>
          <ul className="mt-5 flex gap-2" aria-label="Social media">
            {SOCIAL.map(({ label, Icon }) => (
              <li key={label}>
                <button
                  type="button"
                  aria-label={label}
                  title={label}
                  className="rounded-full bg-white/10 p-2 text-white hover:bg-white/20"
                >
                  <Icon />
                </button>
              </li>
            ))}
          </ul>
        </div>

        <Column title="Shop">
          {CATEGORY_LINKS.map((link) => (
            <li key={link.label}>
              <Link to={link.to} className={itemClass}>
                {link.label}
              </Link>
            </li>
          ))}
        </Column>

        <Column title="Customer care">
          <li>
            <button type="button" className={itemClass} onClick={() => setPopUp("shipping")}>
              Shipping
            </button>
          </li>
          <li>
            <button type="button" className={itemClass} onClick={() => setPopUp("returns")}>
              Returns
            </button>
          </li>
          <li>
            <a href={phoneHref(config.phone)} className={itemClass}>
              <PhoneIcon className="size-4" />
              <span>
                <span className="sr-only">Call us on </span>
                {config.phone}
              </span>
            </a>
          </li>
          <li>
            <a href={`mailto:${config.email}`} className={`${itemClass} break-all`}>
              <MailIcon className="size-4 shrink-0" />
              <span>
                <span className="sr-only">E-mail support at </span>
                {config.email}
              </span>
            </a>
          </li>
          <li>
            {/* Find my order sends a signed-in shopper on to My Orders. */}
            <Link to="/find-order" className={itemClass}>
              Track order
            </Link>
          </li>
        </Column>

        <Column title="Company">
          <li>
            <button type="button" className={itemClass} onClick={() => goToSection(SECTION_IDS.about)}>
              About Us
            </button>
          </li>
          <li>
            <Link to="/contact" className={itemClass}>
              Contact Us
            </Link>
          </li>
          <li>
            <Link to="/blog" className={itemClass}>
              Blog
            </Link>
          </li>
        </Column>

        <Column title="Policies">
          {POLICY_LINKS.map((link) => (
            <li key={link.to}>
              <Link to={link.to} className={itemClass}>
                {link.label}
              </Link>
            </li>
          ))}
        </Column>
      </div>
      <div className="border-t border-white/10">
        <div className="mx-auto max-w-7xl px-4 pt-5">
          <SellerLine details={config.details} />
        </div>
        <div className="mx-auto flex max-w-7xl flex-col gap-2 px-4 pt-2 pb-5 text-xs text-stone-400 sm:flex-row sm:justify-between">
          <p>
            © {new Date().getFullYear()} {config.shopName}. All rights reserved.
          </p>
          <p>Designed and built with care by the {config.shopName} team in India.</p>
        </div>
      </div>
      <ShippingDialog open={popUp === "shipping"} onClose={close} config={config} />
      <ReturnsDialog open={popUp === "returns"} onClose={close} config={config} />
    </footer>
  );
}
