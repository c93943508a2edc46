import { useState } from "react";
import { isApiError } from "./api.ts";

const SOMETHING_WENT_WRONG = "Something went wrong. Please try again.";

const apiMessage = (caught: unknown) => (isApiError(caught) ? caught.message : SOMETHING_WENT_WRONG);

/**
 * One request a button or a small form sends: `busy` while it is out, and what went wrong in words
 * (`error`) when it fails. `run` takes the request and what follows its success, so a step after the
 * request that fails is reported the same way. `describe` words a failure for screens that say more
 * than the server's message.
 */
export function useRequest(describe: (caught: unknown) => string = apiMessage) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run(send: () => Promise<void>): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await send();
    } catch (caught) {
      setError(describe(caught));
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, setError, run };
}
