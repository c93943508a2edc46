import { useFetcher } from "react-router";
import { formatMobile } from "../../../common/india.ts";
import { MOBILE_CODE_LENGTH, nationalDigits, toE164Mobile } from "../../../common/mobile-sign-in.ts";
import { buttonClass } from "../../components/button.tsx";
import { TextField } from "../../components/field.tsx";
import { Notice } from "../../components/notice.tsx";
import { authClient } from "../../lib/auth-client.ts";
import { attemptAuth, authErrorMessage } from "../../lib/auth-errors.ts";

export type MobileResult =
  | { intent: "mobile-send"; ok: false; message: string }
  | { intent: "mobile-send"; ok: true; phoneNumber: string }
  | { intent: "mobile-verify"; ok: boolean; message: string; phoneNumber: string };

const shown = (e164: string) => `+91\u00a0${formatMobile(nationalDigits(e164)).replace(" ", "\u00a0")}`;

/** Settings' actions for the mobile number: send a code to it, then prove it with the code. */
export async function mobileNumberAction(form: FormData): Promise<MobileResult> {
  const intent = String(form.get("intent"));
  if (intent === "mobile-verify") {
    const phoneNumber = String(form.get("phoneNumber") ?? "");
    const code = String(form.get("code") ?? "").replace(/\s/g, "");
    const result = await attemptAuth((options) =>
      authClient.phoneNumber.verify({ phoneNumber, code, updatePhoneNumber: true }, options),
    );
    return result.ok
      ? { intent, ok: true, phoneNumber, message: `${shown(phoneNumber)} is saved: you can sign in with it.` }
      : { intent, ok: false, phoneNumber, message: result.message };
  }
  const phoneNumber = toE164Mobile(String(form.get("phoneNumber") ?? ""));
  if (!phoneNumber) {
    return { intent: "mobile-send", ok: false, message: authErrorMessage({ code: "INVALID_PHONE_NUMBER" }) };
  }
  const result = await attemptAuth((options) => authClient.phoneNumber.sendOtp({ phoneNumber }, options));
  return result.ok
    ? { intent: "mobile-send", ok: true, phoneNumber }
    : { intent: "mobile-send", ok: false, message: result.message };
}

const button = buttonClass({ size: "lg" });

/**
 * The account's mobile number, proved by a code, with which the shopper can then sign in. A number is saved
 * only once proved, so no one can sign in to this account with a number they typed here.
 */
export function MobileNumber({ phoneNumber }: { phoneNumber: string | null }) {
  const fetcher = useFetcher<MobileResult>();
  const data = fetcher.data;
  const busy = fetcher.state === "submitting";
  const saved = data?.intent === "mobile-verify" && data.ok ? data.phoneNumber : phoneNumber;
  const awaiting =
    (data?.intent === "mobile-send" && data.ok) || (data?.intent === "mobile-verify" && !data.ok)
      ? data.phoneNumber
      : null;

  return (
    <div className="space-y-4">
      {saved && (
        <p className="text-stone-700 dark:text-stone-300">
          You can sign in with <strong>{shown(saved)}</strong>.
        </p>
      )}
      {data && "message" in data && <Notice tone={data.ok ? "success" : "error"}>{data.message}</Notice>}
      {awaiting ? (
        <fetcher.Form method="post" className="space-y-4" key={`code-${awaiting}`}>
          <input type="hidden" name="intent" value="mobile-verify" />
          <input type="hidden" name="phoneNumber" value={awaiting} />
          <TextField
            label={`Code sent by SMS to ${shown(awaiting)}`}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={MOBILE_CODE_LENGTH}
            required
            autoFocus
          />
          <button type="submit" className={button} aria-disabled={busy || undefined}>
            {busy ? "Checking…" : "Save mobile number"}
          </button>
        </fetcher.Form>
      ) : (
        <fetcher.Form method="post" className="space-y-4" key="number">
          <input type="hidden" name="intent" value="mobile-send" />
          <TextField
            label={saved ? "Another mobile number" : "Mobile number"}
            name="phoneNumber"
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            placeholder="98765 43210"
            hint="We send it a code by SMS; once you enter the code, you can sign in with this number."
            maxLength={16}
            required
          />
          <button type="submit" className={button} aria-disabled={busy || undefined}>
            {busy ? "Sending…" : "Send code"}
          </button>
        </fetcher.Form>
      )}
    </div>
  );
}
