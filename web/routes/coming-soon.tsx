import { Link, useLocation } from "react-router";

/** Routes whose screens are still being built say so plainly instead of showing a blank page. */
export function Component() {
  const { pathname } = useLocation();
  return (
    <section className="py-16 text-center">
      <h1 className="font-serif text-2xl font-semibold">This page is not open yet</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-400">{pathname} is being built.</p>
      <Link to="/" className="mt-4 inline-block underline">
        Back to the shop
      </Link>
    </section>
  );
}
