/** The admin dashboard's figures (GET /api/admin/summary). */
export type AdminSummary = {
  customers: number;
  newCustomersLast7Days: number;
  admins: number;
  products: number;
  productsOutOfStock: number;
  combos: number;
};
