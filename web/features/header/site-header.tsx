import { useLayoutEffect, useRef } from "react";
import { Link } from "react-router";
import { SECTION_IDS, useGoToSection } from "../../lib/go-to-section.ts";
import { HEADER_MENUS, productsInMenu } from "../../lib/header-menus.ts";
import { useShopData } from "../../lib/shop-data.ts";
import { AccountMenu } from "../auth/account-menu.tsx";
import { useSessionUser } from "../auth/session-store.ts";
import { PromoBanner } from "../banner/promo-banner.tsx";
import { CartButton } from "../cart/cart-button.tsx";
import { useCartCount } from "../cart/use-cart-count.ts";
import { SearchOverlay } from "../search/search-overlay.tsx";
import { ThemeToggle } from "../theme/theme-toggle.tsx";
import { CategoryMenu } from "./category-menu.tsx";
import { MobileMenu } from "./mobile-menu.tsx";

const navLinkClass =
  "rounded-full px-3 py-2 text-sm font-medium text-stone-700 hover:bg-brand-50 hover:text-brand-800 dark:text-stone-200 dark:hover:bg-stone-800 dark:hover:text-white";

/** Promo banner and header, stuck to the top; its height is published so anchors land below it. */
export function SiteHeader() {
  const { products, config } = useShopData();
  const user = useSessionUser();
  const cartCount = useCartCount({ signedIn: user != null });
  const goToSection = useGoToSection();
  const topRef = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const top = topRef.current;
    if (!top) return;
    const publish = () =>
      document.documentElement.style.setProperty("--header-height", `${top.offsetHeight}px`);
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(top);
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={topRef} className="sticky top-0 z-40">
      <PromoBanner />
      {/* Opaque, not a blur of the page behind it: a sticky header's backdrop blur is drawn again on every frame
          the page scrolls under it, work a low-end phone feels, for a header that was 95 % opaque anyway. */}
      <header className="border-b border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
        <div className="mx-auto flex max-w-7xl items-center gap-1 px-2 py-2 sm:px-4">
          <MobileMenu products={products} />
          <Link
            to="/"
            className="flex min-w-0 items-center gap-1.5 rounded-lg px-1 font-serif text-lg leading-tight font-semibold text-brand-800 sm:text-xl sm:whitespace-nowrap dark:text-brand-100"
          >
            <img
              src={config.brand.logo?.small ?? "/favicon.svg"}
              width={32}
              height={32}
              alt=""
              className="size-8 shrink-0 rounded"
            />
            {/* A signed-in phone also shows the avatar: the name then takes two lines rather than the icons' room. */}
            <span className="min-w-0">{config.shopName}</span>
          </Link>
          <nav aria-label="Site" className="ml-6 hidden items-center gap-1 lg:flex">
            <button type="button" className={navLinkClass} onClick={() => goToSection(SECTION_IDS.about)}>
              About Us
            </button>
            <Link to="/blog" className={navLinkClass}>
              Blog
            </Link>
          </nav>
          <div className="ml-auto flex items-center">
            <SearchOverlay products={products} />
            <div className="hidden lg:block">
              <ThemeToggle />
            </div>
            <CartButton count={cartCount} />
            {/* The avatar on a phone too, as the spec asks; Login (and the space kept while the session
                loads) only from 640 px, where there is room: on a phone Login is in the menu sheet. */}
            <div className={user ? "ml-1" : "ml-1 hidden sm:block"}>
              <AccountMenu />
            </div>
          </div>
        </div>
        <nav
          aria-label="Shop by category"
          className="hidden border-t border-stone-100 lg:block dark:border-stone-800"
        >
          <ul className="mx-auto flex max-w-7xl items-center justify-center gap-2 px-4 py-1">
            {HEADER_MENUS.map((menu) => (
              <CategoryMenu
                key={menu.key}
                label={menu.label}
                all={menu.all}
                products={productsInMenu(products, menu.key)}
              />
            ))}
          </ul>
        </nav>
      </header>
    </div>
  );
}
