import type { ReactNode } from "react";

export function SectionHeading({
  id,
  eyebrow,
  title,
  children,
}: {
  id: string;
  eyebrow: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="mx-auto mb-8 max-w-2xl text-center">
      <p className="text-sm font-semibold tracking-widest text-brand-700 uppercase dark:text-brand-100">
        {eyebrow}
      </p>
      <h2 id={id} className="mt-1 font-serif text-3xl font-semibold sm:text-4xl">
        {title}
      </h2>
      {children && <p className="mt-3 text-stone-600 dark:text-stone-400">{children}</p>}
    </div>
  );
}
