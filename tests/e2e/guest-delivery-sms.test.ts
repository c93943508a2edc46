import { describe, expect } from "vitest";
import { screenshotLightAndDark } from "../fixtures.ts";
import { it } from "../shop-test.ts";

// Issue 41: guests' parcel news went by e-mail only. The owner may now choose to text it too, on Settings,
// saved the moment she ticks it; she reads what it costs before she does.
describe("the owner's switch for texting guests their parcel's news", () => {
  it.for(["phone", "desktop"] as const)(
    "is ticked, saved, kept and unticked at %s size",
    async (viewport, { owner, signedIn }) => {
      const context = await signedIn(owner, { viewport });
      const page = await context.newPage();
      await page.goto("/admin/settings");
      const section = page.getByRole("region", { name: "Guests' parcel news by SMS" });
      await section.getByText("Every SMS is charged to you by your SMS provider.").waitFor();
      const box = section.getByRole("checkbox", { name: "Text guests their parcel's news" });
      await expect(box.isChecked()).resolves.toBe(false);

      await box.check();
      await section
        .getByRole("status")
        .getByText("Saved: guests are texted from the next parcel news on.")
        .waitFor();
      await section.scrollIntoViewIfNeeded();
      await screenshotLightAndDark(page, `guest-delivery-sms-${viewport}`);
      await page.reload();
      await expect(
        page
          .getByRole("region", { name: "Guests' parcel news by SMS" })
          .getByRole("checkbox", { name: "Text guests their parcel's news" })
          .isChecked(),
      ).resolves.toBe(true);

      // Every file of the worker shares this shop: the choice is put back as it was.
      await page.getByRole("checkbox", { name: "Text guests their parcel's news" }).uncheck();
      await page.getByText("Saved: guests get their parcel's news by e-mail only from now on.").waitFor();
    },
  );
});
