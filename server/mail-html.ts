import { escapeHtml } from "../common/escape-html.ts";

/** Plain text as HTML paragraphs, keeping the writer's line breaks. */
export function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replaceAll("\n", "<br>")}</p>`)
    .join("\n");
}
