import { expect } from "vitest";
import type { TestAccount } from "./accounts.ts";

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
