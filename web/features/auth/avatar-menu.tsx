import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Link, useLocation, useNavigate, useRevalidator } from "react-router";
import { signOut } from "./session-store.ts";

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
}

export function AvatarMenu({ email, admin }: { email: string; admin: boolean }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const location = useLocation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const items = () => menuItems(menu.current);

  // A click elsewhere closes the menu; so does following one of its links.
  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOutside);
    return () => document.removeEventListener("pointerdown", closeOutside);
  }, [open]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes when the page changes
  useEffect(() => setOpen(false), [location.pathname]);
  useEffect(() => {
    if (open) menuItems(menu.current)[0]?.focus();
  }, [open]);

  function close(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }

  function onMenuKey(event: KeyboardEvent) {
    const all = items();
    const index = all.indexOf(document.activeElement as HTMLElement);
    const focus = (next: number) => all[(next + all.length) % all.length]?.focus();
    if (event.key === "Escape") close(true);
    else if (event.key === "Tab") close(false);
    else if (event.key === "ArrowDown") focus(index + 1);
    else if (event.key === "ArrowUp") focus(index - 1);
    else if (event.key === "Home") focus(0);
    else if (event.key === "End") focus(all.length - 1);
    else return;
    if (event.key !== "Tab") event.preventDefault();
  }

  async function logout() {
    close(false);
    await signOut();
    navigate("/");
    revalidator.revalidate();
  }

  const item =
    "block w-full px-4 py-2.5 text-left text-sm text-stone-800 hover:bg-stone-100 focus:bg-stone-100 focus:outline-none dark:text-stone-100 dark:hover:bg-stone-800 dark:focus:bg-stone-800";
  return (
    <div className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Account menu for ${email}`}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
        className="flex size-11 items-center justify-center rounded-full bg-brand-700 font-semibold text-white uppercase hover:bg-brand-800 dark:bg-brand-100 dark:text-brand-900 dark:hover:bg-white"
      >
        <span aria-hidden="true">{email.charAt(0)}</span>
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label="Account"
          tabIndex={-1}
          onKeyDown={onMenuKey}
          className="absolute top-full right-0 z-50 mt-2 w-64 overflow-hidden rounded-xl border border-stone-200 bg-white py-1 shadow-lg dark:border-stone-700 dark:bg-stone-900"
        >
          <div role="presentation" className="border-b border-stone-200 px-4 py-3 dark:border-stone-700">
            <span className="block text-xs text-stone-500 dark:text-stone-400">Signed in as</span>
            <span
              className="block truncate text-sm font-medium text-stone-900 dark:text-stone-50"
              title={email}
            >
              {email}
            </span>
          </div>
          <Link role="menuitem" tabIndex={-1} to="/orders" className={item}>
            My Orders
          </Link>
          <Link role="menuitem" tabIndex={-1} to="/questions" className={item}>
            My Questions
          </Link>
          <Link role="menuitem" tabIndex={-1} to="/settings" className={item}>
            Settings
          </Link>
          {admin && (
            <Link role="menuitem" tabIndex={-1} to="/admin" className={item}>
              Admin
            </Link>
          )}
          <div role="presentation" className="my-1 border-t border-stone-200 dark:border-stone-700" />
          <button role="menuitem" tabIndex={-1} type="button" onClick={logout} className={item}>
            Logout
          </button>
        </div>
      )}
    </div>
  );
}
