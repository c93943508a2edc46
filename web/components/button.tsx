/** The shop's one button: every screen takes its look from here, as a <button> or as classes for a link. */
import type { ComponentPropsWithRef } from "react";

export type ButtonVariant = "primary" | "brand" | "secondary" | "danger" | "danger-outline" | "link";
export type ButtonSize = "sm" | "md" | "lg";
export type ButtonLook = { variant?: ButtonVariant; size?: ButtonSize; block?: boolean };

// min-h-11: 44 px, the smallest target a thumb hits reliably on a phone.
const BASE =
  "inline-flex min-h-11 items-center justify-center gap-2 text-center disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-wait aria-disabled:opacity-80";

const VARIANTS: Record<Exclude<ButtonVariant, "link">, string> = {
  // Forms and admin screens: a deeper green in dark mode keeps white text readable.
  primary: "rounded-lg bg-brand-700 text-white hover:bg-brand-800 dark:bg-brand-600 dark:hover:bg-brand-700",
  // The storefront's own calls to action: a pill that turns light on a dark page, like the header's.
  brand:
    "rounded-full bg-brand-700 text-white hover:bg-brand-800 dark:bg-brand-100 dark:text-brand-900 dark:hover:bg-white",
  secondary:
    "rounded-lg border border-stone-300 bg-white text-stone-800 hover:bg-stone-100 dark:border-stone-600 dark:bg-stone-900 dark:text-stone-100 dark:hover:bg-stone-800",
  // For the step that cannot be undone (the confirming button of a cancel or a removal).
  danger: "rounded-lg bg-red-700 text-white hover:bg-red-800",
  // For a destructive choice that sits beside others (Delete next to Approve).
  "danger-outline":
    "rounded-lg border border-red-300 bg-white text-red-800 hover:bg-red-50 dark:border-red-800 dark:bg-stone-900 dark:text-red-300 dark:hover:bg-red-950",
};

const SIZES: Record<ButtonSize, string> = {
  sm: "px-4 py-2 text-sm",
  md: "px-4 py-2",
  lg: "px-5 py-3",
};

const LINK =
  "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800 dark:text-brand-100 dark:hover:text-white";

/** The classes of a button look, for a <Link> or <a> that should look like a button. */
export function buttonClass({ variant = "primary", size = "md", block = false }: ButtonLook = {}): string {
  if (variant === "link") return LINK;
  // One weight per button (two font-* classes would be settled by stylesheet order, not by intent): the
  // storefront's pills and the large filled buttons that end a form are semibold, the rest medium.
  const filled = variant === "primary" || variant === "danger";
  const weight = variant === "brand" || (size === "lg" && filled) ? "font-semibold" : "font-medium";
  return `${BASE} ${VARIANTS[variant]} ${SIZES[size]} ${weight}${block ? " w-full" : ""}`;
}

export type ButtonProps = ComponentPropsWithRef<"button"> &
  ButtonLook & {
    /** While a request is out the button stays focusable (a screen reader keeps its place) but does nothing. */
    pending?: boolean;
    pendingLabel?: string;
  };

export function Button({
  variant,
  size,
  block,
  pending,
  pendingLabel,
  className,
  type = "button",
  children,
  ...button
}: ButtonProps) {
  const look = buttonClass({ variant, size, block });
  return (
    <button
      type={type}
      aria-disabled={pending || undefined}
      className={className ? `${look} ${className}` : look}
      {...button}
      onClick={pending ? (event) => event.preventDefault() : button.onClick}
    >
      {pending ? (pendingLabel ?? children) : children}
    </button>
  );
}
