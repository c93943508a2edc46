import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Stars } from "./stars.tsx";

const goldWidth = (rating: number) =>
  /width:\s*([\d.]+)%/.exec(renderToStaticMarkup(createElement(Stars, { rating })))?.[1];

describe("the one drawing of a rating", () => {
  it("fills 4.5 to four and a half stars, not five (the reviews summary once rounded it up)", () => {
    expect(goldWidth(4.5)).toBe("90");
    expect(goldWidth(4.8)).toBe("96");
    expect(goldWidth(5)).toBe("100");
    expect(goldWidth(0)).toBe("0");
  });

  it("is an image with a name when labelled, and hidden beside a rating in words when not", () => {
    const named = renderToStaticMarkup(createElement(Stars, { rating: 4, label: "4 out of 5 stars" }));
    expect(named).toContain('role="img"');
    expect(named).toContain('aria-label="4 out of 5 stars"');
    expect(renderToStaticMarkup(createElement(Stars, { rating: 4 }))).toContain('aria-hidden="true"');
  });
});
