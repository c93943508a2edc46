// HSN codes and GST rates of the seed catalogue, after the rates of 22 September 2025. Pure data: the owner
// must confirm each with the shop's accountant (docs/decisions/037) and can change them at /admin/tax.

export type SeedTax = { hsnCode: string; gstRateBp: number };

export const productTax: Record<string, SeedTax> = {
  // Hair oils (3305 90 11/19) and shampoos (3305 10) moved to 5 %; other hair preparations stay at 18 %.
  "hair-growth-oil": { hsnCode: "33059019", gstRateBp: 500 },
  "hair-wash-powder": { hsnCode: "33051090", gstRateBp: 500 },
  "natural-hair-dye": { hsnCode: "33059040", gstRateBp: 1800 },
  "hair-conditioning-pack": { hsnCode: "33059090", gstRateBp: 1800 },
  "hair-growth-serum": { hsnCode: "33059090", gstRateBp: 1800 },
  // Face packs, face oils and face wash powders: beauty and skin-care preparations (3304 99), 18 %.
  "beetroot-face-pack": { hsnCode: "33049990", gstRateBp: 1800 },
  "skin-brightening-pack": { hsnCode: "33049990", gstRateBp: 1800 },
  "face-glow-oil": { hsnCode: "33049990", gstRateBp: 1800 },
  "face-wash-powder": { hsnCode: "33049990", gstRateBp: 1800 },
  // Bath powders: bath preparations (3307 30); the hair-removal powder: depilatories (3307 90 10); 18 %.
  "bath-powder": { hsnCode: "33073090", gstRateBp: 1800 },
  "kids-bath-powder": { hsnCode: "33073090", gstRateBp: 1800 },
  "wax-powder": { hsnCode: "33079010", gstRateBp: 1800 },
  // Coconut oil in retail packs is classed as the edible oil (1513 19), 5 %.
  "coconut-oil": { hsnCode: "15131900", gstRateBp: 500 },
  // Food: spices (0904, 0910), dried leaf powder (1211), flour-based health mixes and malts (1901 90),
  // other food preparations (2106 90); all 5 % since September 2025.
  "chilli-powder": { hsnCode: "09042211", gstRateBp: 500 },
  "curry-leaves-powder": { hsnCode: "09109990", gstRateBp: 500 },
  "moringa-powder": { hsnCode: "12119099", gstRateBp: 500 },
  "protein-mix": { hsnCode: "19019090", gstRateBp: 500 },
  "sathu-maavu": { hsnCode: "19019090", gstRateBp: 500 },
  "abc-malt": { hsnCode: "19019090", gstRateBp: 500 },
  "badam-mix": { hsnCode: "21069099", gstRateBp: 500 },
  "immunity-booster": { hsnCode: "21069099", gstRateBp: 500 },
};
