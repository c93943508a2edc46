import { useRef } from "react";
import { Link, useNavigate } from "react-router";
import type { Product } from "../../../common/catalogue.ts";
import { Dialog } from "../../components/dialog.tsx";
import { ChevronDownIcon } from "../../components/icons.tsx";
import { SECTION_IDS, useGoToSection } from "../../lib/go-to-section.ts";
import { EMPTY_MENU_TEXT, HEADER_MENUS, productsInMenu } from "../../lib/header-menus.ts";
import { LoginButton } from "../auth/login-button.tsx";
import { signOut, useSessionUser } from "../auth/session-store.ts";
import { ThemeToggle } from "../theme/theme-toggle.tsx";

const rowClass =
  "flex w-full items-center justify-between rounded-lg px-3 py-2.5 text-left font-medium hover:bg-brand-50 dark:hover:bg-stone-800";

/** Signed in, the mobile menu carries the avatar menu's links (the spec's header menu). */
const ACCOUNT_LINKS = [
  ["/orders", "My Orders"],
  ["/questions", "My Questions"],
  ["/settings", "Settings"],
] as const;

/** The side sheet behind the header's menu button: categories, About Us, Blog, Contact Us, account. */
export function MobileMenuSheet({
  products,
  open,
  setOpen,
}: {
  products: Product[];
  open: boolean;
  setOpen: (open: boolean) => void;
}) {
  const user = useSessionUser();
  const navigate = useNavigate();
  const goToSection = useGoToSection();
  // Scrolling waits for the dialog's close event, when focus has gone back to the page.
  const pendingSection = useRef<string | null>(null);

  const closeThenGoTo = (id: string) => {
    pendingSection.current = id;
    setOpen(false);
  };
  const close = () => setOpen(false);

  return (
    <Dialog
      open={open}
      variant="sheet"
      title="Menu"
      onClose={() => {
        setOpen(false);
        const section = pendingSection.current;
        pendingSection.current = null;
        if (section) goToSection(section);
      }}
    >
      {/* One scroller for the whole sheet: a scrolling list above a fixed account block cut its last rows
          ("Contact U…") in half on a phone, and looked like the end of the menu. */}
      <div className="-mx-2 flex-1 overflow-y-auto px-2">
        <nav aria-label="Mobile" className="-mx-2">
          <ul className="space-y-1">
            {HEADER_MENUS.map((menu) => {
              const items = productsInMenu(products, menu.key);
              return (
                <li key={menu.key}>
                  <details className="group">
                    <summary
                      className={`${rowClass} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}
                    >
                      {menu.label}
                      <ChevronDownIcon className="size-4 transition-transform group-open:rotate-180" />
                    </summary>
                    {items.length === 0 ? (
                      <p className="px-5 py-2 text-sm text-stone-600 dark:text-stone-400">
                        {EMPTY_MENU_TEXT.mobile}
                      </p>
                    ) : (
                      <ul className="pb-2 pl-3">
                        {items.map((product) => (
                          <li key={product.slug}>
                            <Link
                              to={`/product/${product.slug}`}
                              onClick={close}
                              className="block rounded-lg px-3 py-2 text-sm text-stone-700 hover:bg-brand-50 dark:text-stone-300 dark:hover:bg-stone-800"
                            >
                              {product.name}
                            </Link>
                          </li>
                        ))}
                        <li>
                          <Link
                            to={menu.all.to}
                            onClick={close}
                            className="block rounded-lg px-3 py-2 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:text-brand-100 dark:hover:bg-stone-800"
                          >
                            {menu.all.label} →
                          </Link>
                        </li>
                      </ul>
                    )}
                  </details>
                </li>
              );
            })}
            <li className="border-t border-stone-200 pt-1 dark:border-stone-800">
              <button type="button" className={rowClass} onClick={() => closeThenGoTo(SECTION_IDS.about)}>
                About Us
              </button>
            </li>
            <li>
              <Link to="/blog" onClick={close} className={rowClass}>
                Blog
              </Link>
            </li>
            <li>
              <button type="button" className={rowClass} onClick={() => closeThenGoTo(SECTION_IDS.contact)}>
                Contact Us
              </button>
            </li>
          </ul>
        </nav>
        <div className="mt-4 flex flex-wrap items-center justify-between gap-3 border-t border-stone-200 pt-4 dark:border-stone-800">
          <ThemeToggle withLabel className="text-sm" />
          {!user && <LoginButton onClick={close} />}
        </div>
        {user && (
          <nav
            aria-label="Your account"
            className="mt-4 border-t border-stone-200 pt-4 dark:border-stone-800"
          >
            <p className="flex items-center gap-3 px-3 text-sm text-stone-600 dark:text-stone-400">
              {/* The same letter as the header's avatar: whose account these links are for. */}
              <span
                data-testid="menu-avatar"
                aria-hidden="true"
                className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-700 font-semibold text-white uppercase dark:bg-brand-100 dark:text-brand-900"
              >
                {user.email.charAt(0)}
              </span>
              <span className="truncate">{user.email}</span>
            </p>
            <ul className="mt-2">
              {ACCOUNT_LINKS.map(([to, label]) => (
                <li key={to}>
                  <Link to={to} onClick={close} className={rowClass}>
                    {label}
                  </Link>
                </li>
              ))}
              <li>
                <button
                  type="button"
                  className={rowClass}
                  onClick={async () => {
                    close();
                    await signOut();
                    navigate("/");
                  }}
                >
                  Logout
                </button>
              </li>
            </ul>
          </nav>
        )}
      </div>
    </Dialog>
  );
}
