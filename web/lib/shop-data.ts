import { useRouteLoaderData } from "react-router";
import type { Combo, Product } from "../../common/catalogue.ts";
import type { ShopConfig } from "../../common/shop-config.ts";
import { api } from "./api.ts";
import { getShopConfig } from "./shop-config.ts";

/** What every page shares: the whole catalogue (every active product and combo) and the shop's details. */
export type ShopData = { products: Product[]; combos: Combo[]; config: ShopConfig };

export const ROOT_ROUTE_ID = "root";

export async function loadShopData(): Promise<ShopData> {
  const [catalogue, config] = await Promise.all([
    api<{ products: Product[]; combos: Combo[] }>("/catalogue"),
    getShopConfig(),
  ]);
  return { ...catalogue, config };
}

export function useShopData(): ShopData {
  const data = useRouteLoaderData(ROOT_ROUTE_ID) as ShopData | undefined;
  if (!data) throw new Error("useShopData needs the root route's loader data");
  return data;
}
