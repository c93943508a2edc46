import { Link } from "react-router";
import { buttonClass } from "../../components/button.tsx";

/** Signed out: a Login button. The accounts feature swaps in the avatar menu for signed-in visitors. */
export function LoginButton({ className = "", onClick }: { className?: string; onClick?: () => void }) {
  return (
    <Link
      to="/login"
      onClick={onClick}
      className={`${buttonClass({ variant: "brand", size: "sm" })} ${className}`}
    >
      Login
    </Link>
  );
}
