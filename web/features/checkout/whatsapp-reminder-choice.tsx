import { useShopData } from "../../lib/shop-data.ts";

/**
 * "Remind me on WhatsApp" at checkout (docs/decisions/096): marketing on WhatsApp is a consent of its own,
 * apart from the e-mail one and from order updates, so it has its own box, unticked until the shopper ticks
 * it, saying what comes, from whom and to which number. Shown only when the shop has the reminder template.
 */
export function WhatsAppReminderChoice({
  checked,
  onChange,
  status,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  status: string | null;
}) {
  const { config } = useShopData();
  if (!config.whatsappReminders) return null;
  return (
    <div className="mt-2">
      <label className="flex min-h-11 cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          name="remindOnWhatsApp"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-brand-700"
        />
        <span>
          <span className="block font-medium">Remind me on WhatsApp too, and send me offers there</span>
          <span className="text-stone-600 dark:text-stone-400">
            From {config.shopName}, to the delivery mobile: one message per cart you leave behind. Unsubscribe
            with the link in it.
          </span>
        </span>
      </label>
      <p role="status" className="mt-1 min-h-5 pl-8 text-sm text-stone-600 dark:text-stone-400">
        {status ?? ""}
      </p>
    </div>
  );
}
