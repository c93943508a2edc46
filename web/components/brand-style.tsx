import { BRAND_SHADES, brandPalette } from "../../common/contrast.ts";
import { useShopData } from "../lib/shop-data.ts";

/**
 * The owner's brand colour (GET /api/config), as the shades the pages' brand-* classes read. Rendered with
 * the page on the server, so the first paint already has it; unlayered, it overrides the stylesheet's
 * theme values. Nothing while the owner keeps the shop's own green.
 */
export function BrandStyle() {
  const { colour } = useShopData().config.brand;
  if (!colour) return null;
  const palette = brandPalette(colour);
  const css = `:root{${BRAND_SHADES.map((shade) => `--color-brand-${shade}:${palette[shade]}`).join(";")}}`;
  return <style>{css}</style>;
}
