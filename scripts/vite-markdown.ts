/**
 * Turns content/**\/*.md into JavaScript modules at build time, so the browser receives ready
 * HTML and never downloads a Markdown parser. Each module exports `title`, `description`,
 * `html` and, when its front matter has them, `date` and `author`.
 *
 * The Markdown is our own (content/), so its HTML is trusted; placeholders such as {phone}
 * stay in the text and are filled in the browser from GET /api/config.
 */
import { marked, type Token, type Tokens } from "marked";
import type { Plugin } from "vite";
import { parse as parseYaml } from "yaml";
import { z } from "zod";

const frontMatterSchema = z
  .object({
    title: z.string().min(1),
    description: z.string().min(1),
    // A string, not a timestamp: the web app formats it as a local calendar date.
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD"),
    author: z.string().min(1),
  })
  .strict();

export type MarkdownModule = {
  title: string;
  description: string;
  html: string;
  date?: string;
  author?: string;
};

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/;

/** Concatenated text of inline tokens, without Markdown or HTML. */
function plainText(tokens: readonly Token[]): string {
  return tokens
    .map((token) => {
      if (token.type === "html") return "";
      if ("tokens" in token && token.tokens) return plainText(token.tokens);
      return "text" in token ? token.text : "";
    })
    .join("");
}

/**
 * A page without front matter takes its title from its first level-1 heading, which is removed
 * from the body (the page renders the title itself), and its description from its first paragraph.
 */
export function convertMarkdown(source: string, file = "Markdown"): MarkdownModule {
  const match = FRONT_MATTER.exec(source);
  let frontMatter: z.infer<typeof frontMatterSchema> | undefined;
  if (match) {
    // The core schema keeps 2026-09-14 a string instead of turning it into a UTC Date.
    const parsed = frontMatterSchema.safeParse(parseYaml(match[1] ?? "", { schema: "core" }));
    if (!parsed.success) {
      const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
      throw new Error(`${file}: bad front matter (${problems.join("; ")})`);
    }
    frontMatter = parsed.data;
  }
  const tokens = marked.lexer(match ? source.slice(match[0].length) : source);

  let title = frontMatter?.title;
  if (!title) {
    const index = tokens.findIndex((token) => token.type === "heading" && token.depth === 1);
    const heading = tokens[index] as Tokens.Heading | undefined;
    if (!heading) throw new Error(`${file}: needs a "# Title" line or front matter with a title`);
    title = plainText(heading.tokens);
    tokens.splice(index, 1);
  }
  const firstParagraph = tokens.find((token): token is Tokens.Paragraph => token.type === "paragraph");
  const description = frontMatter?.description ?? (firstParagraph ? plainText(firstParagraph.tokens) : "");

  const html = marked.parser(tokens);
  return frontMatter
    ? { title, description, html, date: frontMatter.date, author: frontMatter.author }
    : { title, description, html };
}

export function markdownPlugin(): Plugin {
  return {
    name: "content-markdown",
    enforce: "pre",
    transform(source, id) {
      if (!id.endsWith(".md")) return;
      const converted = convertMarkdown(source, id);
      const code = Object.entries(converted)
        .map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`)
        .join("\n");
      return { code, map: null };
    },
  };
}
