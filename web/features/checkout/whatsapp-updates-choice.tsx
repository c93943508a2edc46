import { useShopData } from "../../lib/shop-data.ts";

/**
 * "Send order updates on WhatsApp" at checkout, shown only when the shop has WhatsApp: unticked unless the
 * shopper ticks it, since WhatsApp's rules ask for the shopper's own yes (docs/decisions/065).
 */
export function WhatsAppUpdatesChoice({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const { config } = useShopData();
  if (!config.whatsapp) return null;
  return (
    <label className="mt-4 flex min-h-11 cursor-pointer items-start gap-3 text-sm">
      <input
        type="checkbox"
        name="whatsappUpdates"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-0.5 size-5 accent-brand-700"
      />
      <span>
        <span className="block font-medium">Send order updates on WhatsApp</span>
        <span className="text-stone-600 dark:text-stone-400">
          To the delivery mobile: confirming a cash-on-delivery order, shipping, delivery.
        </span>
      </span>
    </label>
  );
}
