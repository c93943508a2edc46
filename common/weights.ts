import type { DefaultItemSize } from "./shipping.ts";

/** Where staff set weights; named by a booking refused for want of one, so the way there is in its words. */
export const WEIGHTS_PAGE = "/admin/shipping/weights";

/** One product's or combo's packed weight and box on the Weights page (docs/decisions/086). */
export type ItemWeight = DefaultItemSize & {
  kind: "product" | "combo";
  id: string;
  name: string;
  active: boolean;
};

/** The Weights page: the shop's default parcel, and every item, those without a weight first. */
export type Weights = { defaultItem: DefaultItemSize; items: ItemWeight[] };

/** What the Shipping desk says of weights: the default parcel, and how many items on sale have no weight. */
export type WeightsSummary = { defaultItem: DefaultItemSize; unweighed: number };
