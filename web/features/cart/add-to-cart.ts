/** What a product or combo page asks the cart for; the server decides prices and stock. */
export type AddToCartRequest =
  | { kind: "product"; slug: string; name: string; quantity: number }
  | { kind: "combo"; id: string; name: string; quantity: number };

/**
 * The single place the product and combo pages put things in the cart. The cart itself
 * (storage, sync, the "{name} was added to cart!" toast) is not built yet, so adding fails
 * with a message the page shows, rather than pretending the item was added.
 */
export async function addToCart(request: AddToCartRequest): Promise<void> {
  throw new Error(`The cart is not open yet, so ${request.name} could not be added. Please try again soon.`);
}
