import { expect } from "vitest";
import type { TestAccount } from "./accounts.ts";
import { TEST_ADDRESS } from "./orders.ts";

/**
 * One API call to a running shop as `as` that must succeed (below 300), for an e2e test's setup steps. Each
 * call has a fresh idempotency key, so a step repeated on purpose is a new request; a 204 answers null.
 */
export async function callShopApi(
  shopUrl: string,
  as: TestAccount,
  method: string,
  url: string,
  body?: unknown,
) {
  const response = await fetch(`${shopUrl}/api${url}`, {
    method,
    headers: {
      "Content-Type": "application/json",
      Origin: shopUrl,
      Cookie: as.cookie,
      "Idempotency-Key": crypto.randomUUID(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${url}`).toBeLessThan(300);
  return response.status === 204 ? null : response.json();
}

/** Saves an address in `as`'s address book on a running shop (the test address unless given one); its id. */
export async function saveShopAddress(shopUrl: string, as: TestAccount, address = TEST_ADDRESS) {
  const { address: saved } = await callShopApi(shopUrl, as, "POST", "/addresses", address);
  return saved.id as string;
}

export type ShopRequestInit = {
  method?: string;
  body?: unknown;
  cookie?: string;
  headers?: Record<string, string>;
};

/** A JSON request to a running shop as its own web app makes it; the status and answer, whatever they are. */
export async function requestShop(shopUrl: string, path: string, init: ShopRequestInit = {}) {
  const response = await fetch(`${shopUrl}${path}`, {
    method: init.method ?? "GET",
    headers: {
      Origin: shopUrl,
      "Content-Type": "application/json",
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
