/** The three benefits, each with a tick. */
export function BenefitList({ benefits }: { benefits: string[] }) {
  return (
    <ul aria-label="Benefits" className="space-y-2">
      {benefits.map((benefit) => (
        <li key={benefit} className="flex items-start gap-2">
          <span aria-hidden="true" className="mt-0.5 font-bold text-brand-700 dark:text-green-400">
            ✓
          </span>
          {benefit}
        </li>
      ))}
    </ul>
  );
}

export function StockStatus({ inStock }: { inStock: boolean }) {
  return (
    <p
      className={`font-medium ${inStock ? "text-brand-700 dark:text-green-400" : "text-red-700 dark:text-red-300"}`}
    >
      {inStock ? "In stock" : "Out of stock"}
    </p>
  );
}
