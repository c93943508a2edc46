import { type LoaderFunctionArgs, useLoaderData } from "react-router";
import type { CodConfirmPage } from "../../common/cod-confirm.ts";
import { RouteError } from "../components/route-error.tsx";
import { ConfirmOrderPanel } from "../features/cod-confirm/confirm-order-panel.tsx";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";

/** The one-tap link of a cash-on-delivery order (docs/decisions/065): the token is the only key. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const page = await api<CodConfirmPage>(
    `/cod-confirm/${encodeURIComponent(params.number ?? "")}?token=${encodeURIComponent(token)}`,
  );
  return { page, token };
}

export const handle: RouteHandle = { meta: privatePage("Confirm your order") };

export const ErrorBoundary = RouteError;

export function Component() {
  const { page, token } = useLoaderData<typeof loader>();
  return <ConfirmOrderPanel key={page.number} initial={page} token={token} />;
}
