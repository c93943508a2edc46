import { test } from "../shop-test.ts";

// The worker's shop and browser start before a file's first test, under the hook's timeout: a test's own
// timeout (early taps allow 40 s) is for the test alone. A worker keeps both for its later files.
test.beforeAll(({ shop, browser }) => {
  if (!shop.url || !browser.isConnected()) throw new Error("The worker's shop or browser did not start");
});
