import { useEffect } from "react";
import { useLocation } from "react-router";
import type { Combo } from "../../../common/catalogue.ts";
import type { ShopConfig } from "../../../common/shop-config.ts";
import { scrollToElement } from "../../lib/go-to-section.ts";
import { CombosSection } from "../combos/combos-section.tsx";
import { AboutSection } from "./about-section.tsx";
import { ContactSection } from "./contact-section.tsx";

/**
 * The home page's lower sections, loaded after the first screen. Arriving at /#about or /#contact from
 * another page, the section is scrolled to once it exists (the router's own hash scroll runs earlier).
 */
export function BelowTheFold({ combos, config }: { combos: Combo[]; config: ShopConfig }) {
  const { hash } = useLocation();
  useEffect(() => {
    const target = hash ? document.getElementById(hash.slice(1)) : null;
    if (target?.closest("[data-below-the-fold]")) scrollToElement(target);
  }, [hash]);
  return (
    <div data-below-the-fold>
      <CombosSection combos={combos} />
      <AboutSection shopName={config.shopName} />
      <ContactSection config={config} />
    </div>
  );
}
