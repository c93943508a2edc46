import { lazy, Suspense, useEffect } from "react";
import { Link, useLocation } from "react-router";
import { isStaffRole } from "../../../common/account.ts";
import { accountLabel } from "../../../common/mobile-account.ts";
import { buttonClass } from "../../components/button.tsx";
import { refreshSession, useSessionUser } from "./session-store.ts";

// Only signed-in visitors need the avatar menu; a first visit does not download it.
const AvatarMenu = lazy(() => import("./avatar-menu.tsx").then((m) => ({ default: m.AvatarMenu })));

const SIGN_IN_PAGES = ["/login", "/signup", "/forgot-password", "/reset-password", "/admin/login"];

/**
 * The header's account control. Signed out: a Login button that brings the visitor back to this page.
 * Signed in: an avatar with the first letter of the e-mail, opening a menu with the e-mail, My Orders,
 * My Questions, Settings and Logout (and the admin pages, for an admin).
 */
export function AccountMenu() {
  const user = useSessionUser();
  const location = useLocation();
  // Signing in or out always ends on another page: asking again there keeps the header right.
  // biome-ignore lint/correctness/useExhaustiveDependencies: asks again when the page changes
  useEffect(() => {
    void refreshSession();
  }, [location.pathname]);
  // The space is kept while the session loads, so the header does not shift.
  if (user === undefined) return <span className="block h-11 w-20" aria-hidden="true" />;
  if (!user) {
    const onSignInPage = SIGN_IN_PAGES.some((page) => location.pathname.startsWith(page));
    const back = onSignInPage ? "/" : location.pathname + location.search;
    // This page's own address, so no filter here (it would join every first visit's download): the sign-in
    // page passes whatever it is given through common/redirect-target.ts before following it.
    return (
      <Link
        to={back === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(back)}`}
        className={buttonClass({ variant: "brand", size: "sm" })}
      >
        Login
      </Link>
    );
  }
  return (
    <Suspense fallback={<span className="block size-11" aria-hidden="true" />}>
      <AvatarMenu email={accountLabel(user.email)} admin={isStaffRole(user.role)} />
    </Suspense>
  );
}
