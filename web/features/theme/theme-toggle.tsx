import { MoonIcon, SunIcon } from "../../components/icons.tsx";
import { useTheme } from "./use-theme.ts";

/** Switches light and dark; `withLabel` shows the words too (the mobile menu has room for them). */
export function ThemeToggle({
  withLabel = false,
  className = "",
}: {
  withLabel?: boolean;
  className?: string;
}) {
  const { theme, toggleTheme } = useTheme();
  const next = theme === "dark" ? "light" : "dark";
  const label = `Switch to ${next} theme`;
  return (
    <button
      type="button"
      onClick={toggleTheme}
      // Switched by the app loader's inline script when tapped before the app has started.
      data-theme-toggle=""
      aria-label={withLabel ? undefined : label}
      title={label}
      className={`inline-flex items-center gap-2 rounded-full p-2.5 text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800 ${className}`}
    >
      {theme === "dark" ? <SunIcon /> : <MoonIcon />}
      {withLabel && <span>{label}</span>}
    </button>
  );
}
