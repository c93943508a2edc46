import { measure, report, startBenchShop } from "./support.ts";

/** Catalogue reads against the cheapest request the app answers: GET /api/health. */
export default async function catalogueBench() {
  const shop = await startBenchShop();
  try {
    const get = (path: string) => async () => {
      const response = await shop.app.request(path);
      if (!response.ok) throw new Error(`${path}: ${response.status}`);
      await response.arrayBuffer();
    };
    const baseline = await measure("GET /api/health", get("/api/health"));
    const results = [
      await measure("GET /api/products (first page)", get("/api/products")),
      await measure(
        "GET /api/products?q=powder&sort=price-high",
        get("/api/products?q=powder&sort=price-high"),
      ),
      await measure("GET /api/products/face-glow-oil", get("/api/products/face-glow-oil")),
      await measure("GET /api/combos", get("/api/combos")),
    ];
    report("Catalogue reads (in-process, embedded PostgreSQL, one caller at a time)", baseline, results);
  } finally {
    await shop.stop();
  }
}
