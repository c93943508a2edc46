import { Link } from "react-router";

/** Signed out: a Login button. The accounts feature swaps in the avatar menu for signed-in visitors. */
export function LoginButton({ className = "", onClick }: { className?: string; onClick?: () => void }) {
  return (
    <Link
      to="/login"
      onClick={onClick}
      className={`inline-flex items-center rounded-full bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 dark:bg-brand-100 dark:text-brand-900 dark:hover:bg-white ${className}`}
    >
      Login
    </Link>
  );
}
