import { Link, Outlet, ScrollRestoration, useNavigation } from "react-router";
import { AccountMenu } from "../features/auth/account-menu.tsx";

export function RootLayout() {
  const navigation = useNavigation();
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:p-3">
        Skip to content
      </a>
      <header className="border-b border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
        <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-3">
          <Link to="/" className="font-serif text-xl font-semibold text-brand-800 dark:text-brand-100">
            Prakriti Naturals
          </Link>
          <AccountMenu />
        </div>
      </header>
      {navigation.state === "loading" && (
        <div role="progressbar" aria-label="Loading page" className="h-1 w-full animate-pulse bg-brand-600" />
      )}
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">
        <Outlet />
      </main>
      <ScrollRestoration />
    </div>
  );
}
