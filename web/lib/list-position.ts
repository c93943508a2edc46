/** Where a keyset list is asked to start: ?after= (older) or ?before= (newer), as the server handed them out. */
export type ListPosition = { after?: string; before?: string };

export function listPositionOf(url: URL): ListPosition {
  const after = url.searchParams.get("after");
  const before = url.searchParams.get("before");
  if (after) return { after };
  return before ? { before } : {};
}
