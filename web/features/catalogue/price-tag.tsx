import { formatRupees } from "../../../common/money.ts";
import { isOnSale } from "./product-badge.tsx";

type PriceTagProps = {
  pricePaise: number;
  /** Struck through when above the price. */
  originalPricePaise: number | null;
  size?: "md" | "lg";
};

/** ₹399 ₹499 (struck through), read out as "Price: ₹399 was ₹499". */
export function PriceTag({ pricePaise, originalPricePaise, size = "md" }: PriceTagProps) {
  return (
    <p>
      <span className="sr-only">Price: </span>
      <span className={size === "lg" ? "text-3xl font-semibold" : "font-semibold"}>
        {formatRupees(pricePaise)}
      </span>
      {isOnSale(pricePaise, originalPricePaise) && (
        <s className={`ml-2 text-stone-600 dark:text-stone-400 ${size === "lg" ? "text-lg" : "text-sm"}`}>
          <span className="sr-only">was </span>
          {formatRupees(originalPricePaise)}
        </s>
      )}
    </p>
  );
}
