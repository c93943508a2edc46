/**
 * CSV downloads for spreadsheet programs and accountants' tools: the one cell rule and the one streamed
 * response every export uses, so each file is defused against formulas the same way.
 */

/**
 * A cell as spreadsheet programs read it; a leading = + - @ is defused so a name cannot run as a formula. A
 * plain decimal number ("-30.00", a month's net credit) is left as it is: it can only be read as a number.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text) && !/^-\d+(\.\d+)?$/.test(text)) {
    text = `'${text}`;
  }
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record: its cells, defused and quoted, joined by commas. */
export const csvRow = (cells: readonly (string | number | null)[]) => cells.map(csvCell).join(",");

/**
 * A download of CSV text produced piece by piece: pulled as the client reads, so a slow download holds one
 * piece in memory, not the file; the pieces' source is closed when the client goes away.
 */
export function csvResponse(pieces: AsyncGenerator<string>, fileName: string): Response {
  const encoder = new TextEncoder();
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await pieces.next();
      if (done) return controller.close();
      // A byte-order mark so spreadsheet programs read ₹ and Indian names as UTF-8.
      controller.enqueue(encoder.encode(started ? value : `\uFEFF${value}`));
      started = true;
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
    },
  });
}
