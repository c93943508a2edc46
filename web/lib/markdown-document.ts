/** What a content/**\/*.md file becomes at build time (scripts/vite-markdown.ts). */
export type MarkdownDocument = {
  title: string;
  description: string;
  /** Trusted HTML from our own Markdown, with {shopName}, {phone} and {email} still to fill. */
  html: string;
  date?: string;
  author?: string;
};
