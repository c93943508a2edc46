import type { ReactNode } from "react";

/** The frame of every sign-in screen: one centred card, readable at 375 px and on a wide screen. */
export function AuthCard({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="mx-auto w-full max-w-md py-4 sm:py-10" aria-labelledby="auth-title">
      <div className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm sm:p-8 dark:border-stone-800 dark:bg-stone-900">
        <h1 id="auth-title" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
          {title}
        </h1>
        {intro && <div className="mt-2 text-stone-600 dark:text-stone-300">{intro}</div>}
        <div className="mt-6 space-y-5">{children}</div>
      </div>
    </section>
  );
}
