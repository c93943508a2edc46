import {
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  redirect,
  useActionData,
  useFetcher,
  useLoaderData,
} from "react-router";
import type { SocialProviderInfo } from "../../common/account.ts";
import { safeRedirectTarget, withRedirect } from "../../common/redirect-target.ts";
import { Button } from "../components/button.tsx";
import { TextField } from "../components/field.tsx";
import { Divider, Notice } from "../components/notice.tsx";
import { AuthCard, AuthForm, EmailField, NewPasswordField, OtherWay } from "../features/auth/auth-card.tsx";
import { SocialButtons } from "../features/auth/social-buttons.tsx";
import { api } from "../lib/api.ts";
import { authClient } from "../lib/auth-client.ts";
import { attemptAuth } from "../lib/auth-errors.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { fetchSessionUser } from "../lib/session-user.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirectTarget(new URL(request.url).searchParams.get("redirectTo"));
  const [user, { providers }] = await Promise.all([
    fetchSessionUser(),
    api<{ providers: SocialProviderInfo[] }>("/account/providers"),
  ]);
  if (user) throw redirect(redirectTo);
  // A guest offered an account after ordering arrives with the order's address filled in.
  const email = new URL(request.url).searchParams.get("email")?.slice(0, 254) ?? "";
  return { providers, redirectTo, email };
}

type Result = { sentTo: string } | { error: string; name: string; email: string } | { resent: true };

export async function action({ request }: ActionFunctionArgs): Promise<Result> {
  const form = await request.formData();
  const redirectTo = safeRedirectTarget(new URL(request.url).searchParams.get("redirectTo"));
  // The confirmation link signs in and comes back through the sign-in page, which forwards.
  const callbackURL = withRedirect("/login", redirectTo);
  const email = String(form.get("email") ?? "").trim();
  if (form.get("intent") === "resend") {
    const resent = await attemptAuth((fetchOptions) =>
      authClient.sendVerificationEmail({ email, callbackURL }, fetchOptions),
    );
    return resent.ok ? { resent: true } : { error: resent.message, name: "", email };
  }
  const name = String(form.get("name") ?? "").trim();
  const result = await attemptAuth((fetchOptions) =>
    authClient.signUp.email(
      { name, email, password: String(form.get("password") ?? ""), callbackURL },
      fetchOptions,
    ),
  );
  // A registered address gets the same answer as a new one; its owner is told by e-mail instead.
  return result.ok ? { sentTo: email } : { error: result.message, name, email };
}

export function Component() {
  const { providers, redirectTo, email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const here = withRedirect("/login", redirectTo);

  if (result && "sentTo" in result) return <CheckInbox email={result.sentTo} />;
  const failed = result && "error" in result ? result : undefined;

  return (
    <AuthCard title="Create an account" intro="Save your cart on every device and follow your orders.">
      {failed && <Notice tone="error">{failed.error}</Notice>}
      <AuthForm submit="Create account" pendingLabel="Creating your account…">
        <TextField
          label="Name"
          name="name"
          autoComplete="name"
          required
          maxLength={100}
          defaultValue={failed?.name}
        />
        <EmailField defaultValue={failed?.email ?? email} />
        <NewPasswordField
          label="Password"
          name="password"
          hint="8 to 128 characters. A short sentence is easy to remember and hard to guess."
        />
      </AuthForm>
      {providers.length > 0 && (
        <>
          <Divider label="or" />
          <SocialButtons
            providers={providers}
            returnTo={here}
            errorTo={withRedirect("/signup", redirectTo)}
          />
        </>
      )}
      <OtherWay question="Already have an account?" to={here}>
        Sign in
      </OtherWay>
    </AuthCard>
  );
}

function CheckInbox({ email }: { email: string }) {
  const resend = useFetcher<typeof action>();
  return (
    <AuthCard title="Check your inbox">
      <Notice tone="success">
        We have sent a link to <strong>{email}</strong>. Open it to confirm your address and you will be
        signed in.
      </Notice>
      <p className="text-stone-600 dark:text-stone-300">
        The link works for 24 hours. If you already have an account with this address, the e-mail tells you
        how to sign in instead.
      </p>
      {resend.data && "resent" in resend.data && <Notice tone="info">We have sent the link again.</Notice>}
      {resend.data && "error" in resend.data && <Notice tone="error">{resend.data.error}</Notice>}
      <resend.Form method="post">
        <input type="hidden" name="intent" value="resend" />
        <input type="hidden" name="email" value={email} />
        <p className="text-sm text-stone-600 dark:text-stone-300">
          Nothing after a few minutes? Check your spam folder, or{" "}
          <Button type="submit" variant="link" disabled={resend.state !== "idle"}>
            send the link again
          </Button>
          .
        </p>
      </resend.Form>
    </AuthCard>
  );
}

export const handle: RouteHandle = { meta: privatePage("Create an account") };
