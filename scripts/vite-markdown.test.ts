import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { convertMarkdown } from "./vite-markdown.ts";

const content = path.resolve(import.meta.dirname, "../content");
const read = (folder: string) =>
  readdirSync(path.join(content, folder))
    .filter((file) => file.endsWith(".md"))
    .map((file) => ({ file, source: readFileSync(path.join(content, folder, file), "utf8") }));

describe("convertMarkdown", () => {
  it("takes a page's title from its first heading and leaves it out of the body", () => {
    const page = convertMarkdown(
      "# Terms & **Conditions**\n\nThese terms **apply** to {shopName}.\n\n## Orders\n",
    );
    expect(page.title).toBe("Terms & Conditions");
    expect(page.description).toBe("These terms apply to {shopName}.");
    expect(page.html).not.toContain("<h1");
    expect(page.html).toContain("<h2>Orders</h2>");
    expect(page.html).toContain("{shopName}");
  });

  it("reads front matter, keeping the date a calendar string", () => {
    const post = convertMarkdown(
      "---\n\ntitle: Oil baths\ndescription: Why Sundays.\ndate: 2026-07-22\nauthor: The {shopName} team\n---\n\nBody *text*.\n",
    );
    expect(post).toEqual({
      title: "Oil baths",
      description: "Why Sundays.",
      date: "2026-07-22",
      author: "The {shopName} team",
      html: "<p>Body <em>text</em>.</p>\n",
    });
  });

  it("refuses front matter with a missing or malformed field, naming the file", () => {
    expect(() => convertMarkdown("---\ntitle: A\ndate: 22/07/2026\n---\nx", "post.md")).toThrow(
      /post\.md: bad front matter .*description.*date: must be YYYY-MM-DD/,
    );
  });

  it("refuses a page without a title", () => {
    expect(() => convertMarkdown("Just text.", "page.md")).toThrow(/page\.md: needs a "# Title"/);
  });
});

describe("the shop's content", () => {
  it.each(read("pages"))(
    "content/pages/$file has a title, a description and no stray Markdown",
    ({ source }) => {
      const page = convertMarkdown(source);
      expect(page.title.length).toBeGreaterThan(3);
      expect(page.description.length).toBeGreaterThan(20);
      expect(page.html).not.toMatch(/\*\*|^#/m);
    },
  );

  it("has four blog posts with complete front matter", () => {
    const posts = read("blog").map(({ source }) => convertMarkdown(source));
    expect(posts).toHaveLength(4);
    for (const post of posts) {
      expect(post.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(post.author).toBeTruthy();
      expect(post.html).not.toContain("---");
    }
  });

  // The specification's numbers: courier handover 3-5 days, 6-8 day windows, rupees.
  it("keeps the policies to the specification's days and currency", () => {
    const text = read("pages")
      .map(({ source }) => source)
      .join("\n");
    const dayRanges = new Set(text.match(/\b\d+-\d+ days?\b/g));
    expect([...dayRanges].sort()).toEqual(["3-5 days", "6-8 day", "6-8 days"]);
    expect(text).not.toMatch(/\$|USD|dollar|Rs\.?\s?\d/i);
  });
});
