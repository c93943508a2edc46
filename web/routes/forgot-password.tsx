import {
  type ActionFunctionArgs,
  Form,
  Link,
  type LoaderFunctionArgs,
  useActionData,
  useLoaderData,
  useNavigation,
} from "react-router";
import { safeRedirectTarget, withRedirect } from "../../common/redirect-target.ts";
import { Button, buttonClass } from "../components/button.tsx";
import { Notice } from "../components/notice.tsx";
import { AuthCard, EmailField } from "../features/auth/auth-card.tsx";
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
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const backToSignIn = (
    <p className="text-center text-sm text-stone-600 dark:text-stone-300">
      Remembered it?{" "}
      <Link to={withRedirect("/login", redirectTo)} className={buttonClass({ variant: "link" })}>
        Back to sign in
      </Link>
    </p>
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
      <Form method="post" className="space-y-4">
        <EmailField defaultValue={result && "email" in result ? result.email : undefined} />
        <Button size="lg" block type="submit" pending={submitting} pendingLabel="Sending…">
          Send me a link
        </Button>
      </Form>
      {backToSignIn}
    </AuthCard>
  );
}

export const handle: RouteHandle = { meta: privatePage("Forgot your password") };
