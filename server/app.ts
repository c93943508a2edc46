import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { secureHeaders } from "hono/secure-headers";
import { accountRoutes } from "./account/account.routes.ts";
import { adminRoutes } from "./admin/admin.routes.ts";
import { withClientAddress } from "./auth/client-address.ts";
import { comboRoutes } from "./combos/combos.routes.ts";
import type { Deps } from "./deps.ts";
import { handleError, httpError, notFound } from "./errors.ts";
import { productRoutes } from "./products/products.routes.ts";

export const distDir = path.resolve(import.meta.dirname, "../dist");

export function createApp(deps: Deps) {
  const app = new Hono();

  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // React's style={{...}} props are inline styles; no inline scripts are allowed.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      referrerPolicy: "strict-origin-when-cross-origin",
      xContentTypeOptions: "nosniff",
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use(compress());

  const api = new Hono()
    .get("/health", (c) => c.json({ status: "ok" }))
    .get("/ready", async (c) => {
      try {
        await deps.db.execute(sql`select 1`);
      } catch {
        throw httpError(503, "database_unavailable", "The database cannot be reached.");
      }
      return c.json({ status: "ready" });
    })
    .on(["GET", "POST"], "/auth/*", (c) => deps.auth.handler(withClientAddress(c, deps.env)))
    .route("/account", accountRoutes(deps))
    .route("/admin", adminRoutes(deps))
    .route("/products", productRoutes(deps))
    .route("/combos", comboRoutes(deps));

  api.use("*", async (c, next) => {
    await next();
    c.header("Cache-Control", "no-store", { append: false });
  });
  api.all("*", (c) => {
    throw notFound(`There is no API at ${c.req.method} ${c.req.path}.`);
  });
  app.route("/api", api);

  serveWebApp(app);
  app.onError(handleError);
  return app;
}

/** The built SPA: hashed assets cached for a year, everything else revalidated, unknown paths get index.html. */
function serveWebApp(app: Hono) {
  app.use("/assets/*", async (c, next) => {
    await next();
    if (c.res.ok) c.header("Cache-Control", "public, max-age=31536000, immutable");
  });
  app.use("/images/*", async (c, next) => {
    await next();
    if (c.res.ok) c.header("Cache-Control", "public, max-age=86400");
  });
  const staticFiles = serveStatic({ root: distDir });
  // Only paths naming a file are looked up on disk; page paths (/, /cart) are the SPA's.
  if (existsSync(distDir)) {
    app.use("*", (c, next) => (path.extname(c.req.path) ? staticFiles(c, next) : next()));
  }

  const indexFile = path.join(distDir, "index.html");
  let indexHtml: string | undefined;
  app.get("*", (c) => {
    // A missing file (an old hashed asset, a typo'd image) is a real 404; page paths are the SPA's.
    if (path.extname(c.req.path)) throw notFound("No such file.");
    if (!existsSync(indexFile)) {
      return c.text("The web app has not been built. Run `npm run build` (npm start does it for you).", 503);
    }
    indexHtml ??= readFileSync(indexFile, "utf8");
    c.header("Cache-Control", "no-cache");
    return c.html(indexHtml);
  });
}
