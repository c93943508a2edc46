import {
  type ActionFunctionArgs,
  Form,
  Link,
  type LoaderFunctionArgs,
  redirect,
  useActionData,
  useLoaderData,
  useNavigation,
} from "react-router";
import { formatMobile } from "../../common/india.ts";
import {
  MOBILE_CODE_LENGTH,
  MOBILE_CODE_MINUTES,
  nationalDigits,
  toE164Mobile,
} from "../../common/mobile-sign-in.ts";
import { safeRedirectTarget, withRedirect } from "../../common/redirect-target.ts";
import { Button, buttonClass } from "../components/button.tsx";
import { TextField } from "../components/field.tsx";
import { Notice } from "../components/notice.tsx";
import { AuthCard, NextStepLink, OtherWay } from "../features/auth/auth-card.tsx";
import { showSignedInToast } from "../features/auth/signed-in-toast.ts";
import { api } from "../lib/api.ts";
import { authClient } from "../lib/auth-client.ts";
import { attemptAuth, authErrorMessage } from "../lib/auth-errors.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";

/** Signing in with a mobile number: the number, then the code sent to it by SMS. */
export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirectTarget(new URL(request.url).searchParams.get("redirectTo"), "/");
  const { mobile } = await api<{ mobile: boolean }>("/account/providers");
  return { redirectTo, available: mobile };
}

type ActionData =
  | { step: "number"; error: string; typed: string }
  | { step: "code"; phoneNumber: string; error?: string; resent?: boolean };

export async function action({ request }: ActionFunctionArgs): Promise<ActionData | Response> {
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const redirectTo = safeRedirectTarget(new URL(request.url).searchParams.get("redirectTo"), "/");

  if (intent === "verify") {
    const phoneNumber = String(form.get("phoneNumber") ?? "");
    const code = String(form.get("code") ?? "").replace(/\s/g, "");
    if (!new RegExp(`^[0-9]{${MOBILE_CODE_LENGTH}}$`).test(code)) {
      return { step: "code", phoneNumber, error: authErrorMessage({ code: "INVALID_OTP_FORMAT" }) };
    }
    const result = await attemptAuth((fetchOptions) =>
      authClient.phoneNumber.verify({ phoneNumber, code }, fetchOptions),
    );
    if (!result.ok) return { step: "code", phoneNumber, error: result.message };
    showSignedInToast(result.data.user.email);
    return redirect(redirectTo);
  }

  // "send" and "resend": the number as typed (the server takes spaces, +91 and a leading 0 too).
  const typed = String(form.get("phoneNumber") ?? "").trim();
  const phoneNumber = toE164Mobile(typed);
  if (!phoneNumber) {
    return { step: "number", typed, error: authErrorMessage({ code: "INVALID_PHONE_NUMBER" }) };
  }
  const result = await attemptAuth((fetchOptions) =>
    authClient.phoneNumber.sendOtp({ phoneNumber }, fetchOptions),
  );
  if (!result.ok) {
    return intent === "resend"
      ? { step: "code", phoneNumber, error: result.message }
      : { step: "number", typed, error: result.message };
  }
  return { step: "code", phoneNumber, resent: intent === "resend" };
}

export function Component() {
  const { redirectTo, available } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionData | undefined;
  const navigation = useNavigation();
  const pendingIntent = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  const signInPage = withRedirect("/login", redirectTo);

  if (!available) {
    return (
      <AuthCard title="Sign in with your mobile">
        <Notice tone="info">Signing in with a mobile number is not available at the moment.</Notice>
        <NextStepLink to={signInPage}>Sign in another way</NextStepLink>
      </AuthCard>
    );
  }

  if (result?.step === "code") {
    // Kept on one line: a number broken after +91 is hard to read back.
    const shown = `+91 ${formatMobile(nationalDigits(result.phoneNumber))}`.replace(/ /g, "\u00a0");
    return (
      <AuthCard
        title="Enter the code"
        intro={`We have sent a ${MOBILE_CODE_LENGTH}-digit code by SMS to ${shown}. It works for ${MOBILE_CODE_MINUTES} minutes.`}
      >
        {result.error && <Notice tone="error">{result.error}</Notice>}
        {!result.error && result.resent && <Notice tone="success">We have sent a new code.</Notice>}
        <Form method="post" className="space-y-4">
          <input type="hidden" name="phoneNumber" value={result.phoneNumber} />
          <TextField
            key={result.phoneNumber}
            label="Code from the SMS"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={MOBILE_CODE_LENGTH}
            required
            autoFocus
          />
          <Button
            size="lg"
            block
            type="submit"
            name="intent"
            value="verify"
            pending={pendingIntent === "verify"}
            pendingLabel="Signing in…"
          >
            Sign in
          </Button>
        </Form>
        <Form method="post" className="flex flex-wrap items-center justify-between gap-3 text-sm">
          <input type="hidden" name="phoneNumber" value={result.phoneNumber} />
          <Link
            to={withRedirect("/login/mobile", redirectTo)}
            className={`inline-block py-2 ${buttonClass({ variant: "link" })}`}
          >
            Change number
          </Link>
          <Button type="submit" name="intent" value="resend" variant="link" className="inline-block py-2">
            {pendingIntent === "resend" ? "Sending…" : "Send a new code"}
          </Button>
        </Form>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Sign in with your mobile"
      intro="We send a code by SMS to your mobile number. New here? The code creates your account."
    >
      {result?.error && <Notice tone="error">{result.error}</Notice>}
      <Form method="post" className="space-y-4">
        <TextField
          label="Mobile number"
          name="phoneNumber"
          type="tel"
          inputMode="tel"
          autoComplete="tel-national"
          placeholder="98765 43210"
          hint="10 digits; +91 is added for you."
          maxLength={16}
          required
          autoFocus
          defaultValue={result?.step === "number" ? result.typed : undefined}
        />
        <Button
          size="lg"
          block
          type="submit"
          name="intent"
          value="send"
          pending={pendingIntent === "send"}
          pendingLabel="Sending…"
        >
          Send code
        </Button>
      </Form>
      <OtherWay question="Prefer your e-mail?" to={signInPage}>
        Sign in with it
      </OtherWay>
    </AuthCard>
  );
}

export const handle: RouteHandle = { meta: privatePage("Sign in with your mobile") };
