import { type ActionFunctionArgs, type LoaderFunctionArgs, useActionData, useLoaderData } from "react-router";
import { safeRedirectTarget, withRedirect } from "../../common/redirect-target.ts";
import { Notice } from "../components/notice.tsx";
import { AuthCard, AuthForm, EmailField, OtherWay } from "../features/auth/auth-card.tsx";
import { authClient } from "../lib/auth-client.ts";
import { attemptAuth } from "../lib/auth-errors.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";

export function loader({ request }: LoaderFunctionArgs) {
  return { redirectTo: safeRedirectTarget(new URL(request.url).searchParams.get("redirectTo")) };
}

export async function action({ request }: ActionFunctionArgs) {
  const email = String((await request.formData()).get("email") ?? "").trim();
  const result = await attemptAuth((fetchOptions) =>
    authClient.requestPasswordReset({ email, redirectTo: "/reset-password" }, fetchOptions),
  );
  return result.ok ? { sentTo: email } : { error: result.message, email };
}

export function Component() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const backToSignIn = (
    <OtherWay question="Remembered it?" to={withRedirect("/login", redirectTo)}>
      Back to sign in
    </OtherWay>
  );

  if (result && "sentTo" in result) {
    return (
      <AuthCard title="Check your inbox">
        <Notice tone="success">
          If an account uses <strong>{result.sentTo}</strong>, we have sent it a link to choose a new
          password.
        </Notice>
        <p className="text-stone-600 dark:text-stone-300">
          The link works once, for 60 minutes. Nothing after a few minutes? Check your spam folder, or sign in
          with an e-mail link instead.
        </p>
        {backToSignIn}
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      intro="Enter the e-mail address of your account and we will send you a link to choose a new password."
    >
      {result && "error" in result && <Notice tone="error">{result.error}</Notice>}
      <AuthForm submit="Send me a link" pendingLabel="Sending…">
        <EmailField defaultValue={result && "email" in result ? result.email : undefined} />
      </AuthForm>
      {backToSignIn}
    </AuthCard>
  );
}

export const handle: RouteHandle = { meta: privatePage("Forgot your password") };
