/** The spec's three codes, all active. */
export const discountCodes = [
  { code: "GLOW20", percent: 20, description: "Flat 20% off all products", minAmountPaise: 0, active: true },
  {
    code: "WELCOME10",
    percent: 10,
    description: "10% off orders of ₹500 or more",
    minAmountPaise: 50000,
    active: true,
  },
  {
    code: "SAVE15",
    percent: 15,
    description: "15% off orders of ₹1,000 or more",
    minAmountPaise: 100000,
    active: true,
  },
];
