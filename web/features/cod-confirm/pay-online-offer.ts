import type { CodConfirmPage } from "../../../common/cod-confirm.ts";
import type { OrderDetail } from "../../../common/orders.ts";
import { api } from "../../lib/api.ts";

/**
 * For an order that waits for its COD confirmation, the confirmation page's offer to pay online instead (the
 * amount and what it saves, decided by the server); null for any other order, or when paying online is off.
 */
export async function payOnlineOffer(order: OrderDetail): Promise<CodConfirmPage["payOnline"]> {
  if (!order.codConfirm) return null;
  const page = await api<CodConfirmPage>(
    `/cod-confirm/${encodeURIComponent(order.number)}?token=${encodeURIComponent(order.codConfirm.token)}`,
  );
  return page.payOnline;
}
