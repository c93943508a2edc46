import { type LoaderFunctionArgs, useLoaderData } from "react-router";
import type { ToConfirmList } from "../../common/cod-confirm.ts";
import { ConfirmHoursForm, ToConfirmOrders } from "../features/cod-confirm/to-confirm-list.tsx";
import { api } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminUser(request);
  return api<ToConfirmList>("/admin/cod-confirm");
}

export const handle: RouteHandle = { meta: privatePage("Admin: orders to confirm") };

/**
 * Cash-on-delivery orders the shopper has not confirmed yet (docs/decisions/065): staff call, then confirm
 * or cancel; past the owner's hours the shop cancels them itself.
 */
export function Component() {
  const list = useLoaderData<typeof loader>();
  return (
    <div>
      <h1 className="font-serif text-3xl font-semibold">To confirm</h1>
      <p className="mt-2 max-w-prose text-sm text-stone-600 dark:text-stone-400">
        Cash-on-delivery orders wait here until the shopper confirms them from their link (SMS, e-mail or
        WhatsApp). Call the ones that have not; an order not confirmed within {list.confirmHours} hours of
        ordering is cancelled and its stock put back. Confirmed orders go to packing.
      </p>
      {list.canChangeHours && <ConfirmHoursForm hours={list.confirmHours} />}
      <ToConfirmOrders orders={list.orders} />
    </div>
  );
}
