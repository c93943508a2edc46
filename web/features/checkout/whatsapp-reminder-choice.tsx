import { useShopData } from "../../lib/shop-data.ts";
import { ConsentBox, type ConsentChoiceProps } from "./consent-box.tsx";

/**
 * "Remind me on WhatsApp" at checkout (docs/decisions/096): marketing on WhatsApp is a consent of its own,
 * apart from the e-mail one and from order updates, so it has its own box, unticked until the shopper ticks
 * it, saying what comes, from whom and to which number. Shown only when the shop has the reminder template.
 */
export function WhatsAppReminderChoice({ checked, onChange, status }: ConsentChoiceProps) {
  const { config } = useShopData();
  if (!config.whatsappReminders) return null;
  return (
    <ConsentBox
      name="remindOnWhatsApp"
      title="Remind me on WhatsApp too, and send me offers there"
      detail={`From ${config.shopName}, to the delivery mobile: one message per cart you leave behind. Unsubscribe with the link in it.`}
      checked={checked}
      onChange={onChange}
      status={status}
    />
  );
}
