import type { ShopConfig } from "../../common/shop-config.ts";
import { api } from "./api.ts";

let request: Promise<ShopConfig> | undefined;

/** The shop's name and helpdesk, fetched once per visit; a failed fetch is retried on the next call. */
export function getShopConfig(): Promise<ShopConfig> {
  // On the server one process may serve several shops (tests build an app each): ask every time, in-process.
  if (import.meta.env.SSR) return api<ShopConfig>("/config");
  request ??= api<ShopConfig>("/config").catch((error: unknown) => {
    request = undefined;
    throw error;
  });
  return request;
}
