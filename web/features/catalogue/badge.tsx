/** Spec: each known badge has its own colour; any other value is grey. */
const BADGE_COLOURS: Record<string, string> = {
  "Best Seller": "bg-amber-400 text-stone-950",
  "New Launch": "bg-emerald-700 text-white",
  Viral: "bg-pink-700 text-white",
  "Limited Time": "bg-red-700 text-white",
  "Legacy Product": "bg-indigo-700 text-white",
};
const OTHER_BADGE = "bg-stone-600 text-white";

export function badgeColour(badge: string): string {
  return BADGE_COLOURS[badge] ?? OTHER_BADGE;
}

export function Badge({ label, className = "" }: { label: string; className?: string }) {
  return (
    <span
      data-badge={label}
      className={`inline-block rounded-full px-2.5 py-1 text-xs font-semibold shadow-sm ${badgeColour(label)} ${className}`}
    >
      {label}
    </span>
  );
}
