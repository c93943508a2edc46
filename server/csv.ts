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

/**
 * Reads CSV text as spreadsheet programs and couriers' portals write it (RFC 4180): quoted cells may hold
 * commas, doubled quotes and line breaks; CRLF or LF; a leading byte-order mark is dropped. Rows that are
 * wholly empty are kept as [""] so a caller can count lines; the exports above write the same dialect.
 * Each row comes with the line it starts on, for messages a person can find in the file.
 */
export function parseCsv(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = [];
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else {
        if (char === "\n") line++;
        cell += char;
      }
    } else if (char === '"' && cell === "") quoted = true;
    else if (char === ",") {
      cells.push(cell);
      cell = "";
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && source[index + 1] === "\n") index++;
      cells.push(cell);
      rows.push({ line: rowLine, cells });
      cells = [];
      cell = "";
      line++;
      rowLine = line;
    } else cell += char;
  }
  if (cell !== "" || cells.length > 0) {
    cells.push(cell);
    rows.push({ line: rowLine, cells });
  }
  return rows;
}
