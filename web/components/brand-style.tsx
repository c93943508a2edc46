import { useShopData } from "../lib/shop-data.ts";

/**
 * The owner's brand colour (GET /api/config), as the shades the pages' brand-* classes read. Rendered with
 * the page on the server, so the first paint already has it; unlayered, it overrides the stylesheet's
 * theme values. Nothing while the owner keeps the shop's own green.
 */
export function BrandStyle() {
  const { palette } = useShopData().config.brand;
  if (!palette) return null;
  const shades = Object.entries(palette).map(([shade, hex]) => `--color-brand-${shade}:${hex}`);
  return <style>{`:root{${shades.join(";")}}`}</style>;
}
