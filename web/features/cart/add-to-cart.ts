import { showToast } from "../../components/toast.tsx";
import { addItem } from "./cart-store.ts";

/**
 * Adds a product or combo (a combo is one line at its sale price, under the combo's id), one unless the
 * page's quantity selector says otherwise, and says so in the spec's toast. Resolves to whether it was added.
 */
export async function addToCart(item: {
  id: string;
  kind: "product" | "combo";
  name: string;
  quantity?: number;
}): Promise<boolean> {
  const result = await addItem(item);
  if (result.ok) showToast(`${item.name} was added to cart!`);
  else showToast(result.message, "error");
  return result.ok;
}
