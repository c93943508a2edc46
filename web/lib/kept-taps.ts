export type KeptTaps = {
  taps: HTMLElement[];
  typed: { field: HTMLInputElement | HTMLTextAreaElement; value: string }[];
};

declare global {
  interface Window {
    /** Set by the app loader's inline script (common/app-loader-script.ts); ends its keeping of taps. */
    __takeKeptTaps?: () => KeptTaps;
  }
}

/**
 * Gives the app a field's text typed before it started, as a keystroke would: React hears a change only
 * against the value it last saw, so that is set first through the field's own (watched) setter, then the
 * typed text past it through the prototype's, then the input event React listens for.
 */
function putBackTyped(field: HTMLInputElement | HTMLTextAreaElement, value: string) {
  if (!field.isConnected || value === "") return;
  const setWithoutReactSeeing = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), "value")?.set;
  if (!setWithoutReactSeeing) return;
  field.value = "";
  setWithoutReactSeeing.call(field, value);
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

/**
 * Carries out, in order, the taps the page took before the app had started (the app loader kept them):
 * each button is clicked again now that React answers it, after what was typed meanwhile has been put
 * back into the app. Called once the app has hydrated, when a tap was kept (root-layout.tsx). Between two taps the app renders, so "+" then
 * "Add to cart" adds the quantity the "+" chose.
 */
export async function carryOutKeptTaps({ taps, typed }: KeptTaps): Promise<void> {
  for (const { field, value } of typed) putBackTyped(field, value);
  if (typed.length > 0) await new Promise((resolve) => setTimeout(resolve, 0));
  for (const control of taps) {
    // A control the app has since removed or disabled (an Add to cart already adding) takes no tap.
    if (!control.isConnected || (control instanceof HTMLButtonElement && control.disabled)) continue;
    control.click();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
