/**
 * A random UUID (v4), for an order's Idempotency-Key and a cart merge's id. crypto.randomUUID needs a
 * secure context, which a shop opened over plain http on a local network address is not;
 * getRandomValues works everywhere.
 */
export function newRandomId(): string {
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte, index) =>
    (index === 6 ? (byte & 0x0f) | 0x40 : index === 8 ? (byte & 0x3f) | 0x80 : byte)
      .toString(16)
      .padStart(2, "0"),
  ).join("");
  return hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
}
