import { type ActionFunctionArgs, Form, Link, redirect, useActionData, useNavigation } from "react-router";
import { Button } from "../components/button.tsx";
import { TextField } from "../components/field.tsx";
import { Notice } from "../components/notice.tsx";
import { AuthCard } from "../features/auth/auth-card.tsx";
import { api, isApiError } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { fetchSessionUser } from "../lib/session-user.ts";

/** The footer's Track order: a signed-in shopper's orders are in My Orders. */
export async function loader() {
  if (await fetchSessionUser()) throw redirect("/orders");
  return null;
}

type Result =
  | { sent: string }
  | { error: string; fields?: Record<string, string>; number: string; contact: string };

export async function action({ request }: ActionFunctionArgs): Promise<Result> {
  const form = await request.formData();
  const number = String(form.get("number") ?? "").trim();
  const contact = String(form.get("contact") ?? "").trim();
  try {
    const { message } = await api<{ message: string }>("/guest-orders/find", {
      method: "POST",
      body: { number, contact },
    });
    return { sent: message };
  } catch (error) {
    return {
      error: isApiError(error) ? error.message : "Something went wrong. Please try again.",
      fields: isApiError(error) ? error.fields : undefined,
      number,
      contact,
    };
  }
}

export function Component() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const failed = result && "error" in result ? result : undefined;
  return (
    <AuthCard
      title="Find my order"
      intro="Ordered without an account? Enter the order number from your confirmation e-mail and the e-mail or mobile you ordered with: we e-mail you the link to the order's page, and text it to the mobile when you give one."
    >
      {result && "sent" in result && <Notice tone="success">{result.sent}</Notice>}
      {failed && <Notice tone="error">{failed.error}</Notice>}
      <Form method="post" className="space-y-4">
        <TextField
          label="Order number"
          name="number"
          required
          autoCapitalize="characters"
          placeholder="PN-2026-000123"
          defaultValue={failed?.number}
          error={failed?.fields?.number}
        />
        <TextField
          label="E-mail or mobile number"
          name="contact"
          required
          autoComplete="email"
          defaultValue={failed?.contact}
          error={failed?.fields?.contact}
        />
        <Button size="lg" block type="submit" pending={navigation.state !== "idle"} pendingLabel="Sending…">
          Send me the link
        </Button>
      </Form>
      <p className="text-center text-sm text-stone-600 dark:text-stone-300">
        Have an account?{" "}
        <Link to="/login?redirectTo=%2Forders" className="underline">
          Sign in to see My Orders
        </Link>
      </p>
    </AuthCard>
  );
}

export const handle: RouteHandle = { meta: privatePage("Find my order") };
