import type { Context } from "hono";

/**
 * Sets a header on the answer a handler has already made. hono's `c.header` makes that answer again
 * (`new Response(res.body, res)`), and asking the node adapter's Response for its body turns the string
 * `c.json` gave it, which the adapter writes to the socket as it is, into a fetch Response and a web
 * stream the adapter then reads back chunk by chunk (with compress's Vary, set the same way, 0.1-0.7 ms of an
 * order's node CPU in the burst, decision 069). The headers of a Response the shop made can be changed in
 * place; those of one made by `Response.redirect` or `fetch` cannot (they throw), and get hono's copy.
 */
export function setAnswerHeader(c: Context, name: string, value: string) {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}
