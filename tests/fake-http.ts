import type { IncomingMessage, ServerResponse } from "node:http";

/** A request's whole body as text, decoded once at the end so a character split across chunks stays whole. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/** A request's JSON body; an empty body reads as {}. */
export async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(request);
  return raw ? JSON.parse(raw) : {};
}

/** A JSON answer that no cache keeps, as the providers the fakes stand in for send them. */
export function send(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "no-store",
  });
  response.end(JSON.stringify(body));
}
