import type { ShopConfig } from "../../common/shop-config.ts";
import { api } from "./api.ts";

let request: Promise<ShopConfig> | undefined;
let changed = false;

/**
 * The owner saved the shop's settings or details in this tab: the kept config is dropped and the root
 * loader's next revalidation fetches it again, so the header, colours and footer follow at once.
 */
export function forgetShopConfig() {
  request = undefined;
  changed = true;
}

/** Whether the shop's config changed since the root loader last ran (and it now will). */
export function takeShopConfigChange(): boolean {
  const was = changed;
  changed = false;
  return was;
}

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
