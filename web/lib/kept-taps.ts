declare global {
  interface Window {
    /** Set by the app loader's inline script (common/app-loader-script.ts); ends its keeping of taps. */
    __takeKeptTaps?: () => HTMLElement[];
  }
}

/**
 * Carries out, in order, the taps the page took before the app had started (the app loader kept them):
 * each button is clicked again now that React answers it. Called once the app has hydrated. Between two
 * taps the app renders, so "+" then "Add to cart" adds the quantity the "+" chose.
 */
export async function carryOutKeptTaps(): Promise<void> {
  const take = window.__takeKeptTaps;
  if (!take) return;
  window.__takeKeptTaps = undefined;
  for (const control of take()) {
    // A control the app has since removed or disabled (an Add to cart already adding) takes no tap.
    if (!control.isConnected || (control instanceof HTMLButtonElement && control.disabled)) continue;
    control.click();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}
