import { useRouteLoaderData } from "react-router";
import type { Combo, Product, ProductPage } from "../../common/catalogue.ts";
import type { ShopConfig } from "../../common/shop-config.ts";
import { api } from "./api.ts";
import { getShopConfig } from "./shop-config.ts";

/** What every page shares: the whole catalogue (21 products), the combos and the shop's details. */
export type ShopData = { products: Product[]; combos: Combo[]; config: ShopConfig };

export const ROOT_ROUTE_ID = "root";

export async function loadShopData(): Promise<ShopData> {
  const [page, combos, config] = await Promise.all([
    api<ProductPage>("/products?pageSize=100"),
    api<{ items: Combo[] }>("/combos"),
    getShopConfig(),
  ]);
  return { products: page.items, combos: combos.items, config };
}

export function useShopData(): ShopData {
  const data = useRouteLoaderData(ROOT_ROUTE_ID) as ShopData | undefined;
  if (!data) throw new Error("useShopData needs the root route's loader data");
  return data;
}
