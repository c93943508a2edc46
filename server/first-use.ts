/**
 * `load`, run by the first call and its answer shared by every later one: for a library the shop imports only
 * when a feature first needs it (pdfkit for a tax document, sharp for a photo), so a start does not pay for it.
 * A failed load is not remembered: the next call tries again.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
