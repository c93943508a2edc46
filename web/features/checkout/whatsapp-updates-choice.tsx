import { useShopData } from "../../lib/shop-data.ts";
import { ConsentBox, type ConsentChoiceProps } from "./consent-box.tsx";

/**
 * "Send order updates on WhatsApp" at checkout, shown only when the shop has WhatsApp: unticked unless the
 * shopper ticks it, since WhatsApp's rules ask for the shopper's own yes (docs/decisions/065). It goes with
 * the order, so it has no saving line of its own.
 */
export function WhatsAppUpdatesChoice({ checked, onChange }: Omit<ConsentChoiceProps, "status">) {
  const { config } = useShopData();
  if (!config.whatsapp) return null;
  return (
    <ConsentBox
      name="whatsappUpdates"
      title="Send order updates on WhatsApp"
      detail="To the delivery mobile: confirming a cash-on-delivery order, shipping, delivery."
      checked={checked}
      onChange={onChange}
    />
  );
}
