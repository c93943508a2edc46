import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import type { RequestListener } from "node:http";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import { APP_LOADER_SCRIPT } from "../common/app-loader-script.ts";
import { THEME_SCRIPT } from "../common/theme-script.ts";
import { accountRoutes } from "./account/account.routes.ts";
import { addressRoutes } from "./addresses/addresses.routes.ts";
import { adminRoutes } from "./admin/admin.routes.ts";
import { adminJobRoutes } from "./admin/jobs.routes.ts";
import { adminStaffRoutes } from "./admin/staff.routes.ts";
import { analyticsRoutes } from "./analytics/analytics.routes.ts";
import { funnelRoutes } from "./analytics/funnel.routes.ts";
import { setAnswerHeader } from "./answer-headers.ts";
import { adminAuditRoutes } from "./audit/audit.routes.ts";
import { withClientAddress } from "./auth/client-address.ts";
import { sessionMemoOf, signedInUserOf } from "./auth/session.ts";
import { discountRoutes } from "./cart/apply-code.routes.ts";
import { cartRoutes } from "./cart/cart.routes.ts";
import { adminCartReminderRoutes, marketingConsentRoutes } from "./cart-reminders/cart-reminders.routes.ts";
import { cartReminderPages } from "./cart-reminders/landing-pages.ts";
import type { CatalogueCache } from "./catalogue/catalogue-cache.ts";
import { catalogueRoutes } from "./catalogue.routes.ts";
import { adminCodRoutes } from "./cod/cod.routes.ts";
import { adminCodRuleRoutes } from "./cod/cod-rules.routes.ts";
import { adminCodConfirmRoutes, codConfirmRoutes } from "./cod-orders/confirmation.routes.ts";
import { adminRtoRoutes } from "./cod-orders/rto.routes.ts";
import { adminComboRoutes } from "./combos/admin-combos.routes.ts";
import { comboRoutes } from "./combos/combos.routes.ts";
import { compressAnswers } from "./compress-answers.ts";
import { configRoutes } from "./config/config.routes.ts";
import { adminMessageRoutes, contactRoutes } from "./contact/contact.routes.ts";
import { adminContentRoutes, contentRoutes } from "./content/content.routes.ts";
import { adminDeliveryRuleRoutes, deliveryCheckRoutes, pinRoutes } from "./delivery/delivery.routes.ts";
import type { Deps } from "./deps.ts";
import { adminDiscountCodeRoutes } from "./discounts/admin-discounts.routes.ts";
import { handleError, httpError, notFound, withErrorBody } from "./errors.ts";
import { guestOrderRoutes } from "./guest-orders.routes.ts";
import { hashedAssets } from "./hashed-assets.ts";
import { adminTaxRoutes } from "./invoices/admin-tax.routes.ts";
import type { Lifecycle } from "./lifecycle.ts";
import { razorpayCspSources } from "./money/razorpay.ts";
import { createMetrics, type Metrics, metricsHandler, observeRequests } from "./observability.ts";
import { adminDashboardRoutes, adminOrderRoutes, adminStockRoutes } from "./orders/admin-orders.routes.ts";
import { checkoutRoutes } from "./orders/checkout.routes.ts";
import { adminOrderEditRoutes } from "./orders/edit-order.routes.ts";
import { missedInvoiceRoutes } from "./orders/missed-invoices.routes.ts";
import { orderRoutes } from "./orders.routes.ts";
import { crawlFileRoutes } from "./pages/crawl-files.ts";
import { createPageHandler } from "./pages/pages.ts";
import { paymentRoutes } from "./payments/payments.routes.ts";
import { createPersonalReplay, markPersonal } from "./personal-replay.ts";
import { adminProductImageRoutes, adminProductRoutes } from "./products/admin-products.routes.ts";
import { uploadedImageRoutes } from "./products/product-images.ts";
import { productRoutes, redirectMovedProductPages } from "./products/products.routes.ts";
import { adminQuestionRoutes, questionRoutes } from "./questions/questions.routes.ts";
import { createReplay } from "./replay.ts";
import { checkAuthBodyText, limitRequestBodies, requireSameOriginJson } from "./request-guards.ts";
import { adminReviewRoutes, reviewRoutes } from "./reviews/reviews.routes.ts";
import { adminSettingsRoutes } from "./settings/settings.routes.ts";
import {
  adminShippingRoutes,
  guestOrderShippingRoutes,
  orderShippingRoutes,
  trackingWebhookRoutes,
} from "./shipping/shipping.routes.ts";
import { adminShopRoutes } from "./shop/shop.routes.ts";
import { whatsAppWebhookRoutes } from "./whatsapp-webhook.routes.ts";

export const distDir = path.resolve(import.meta.dirname, "../dist");

/**
 * The two inline scripts the pages carry, allowed by their hashes: the theme, set before the first paint,
 * and the loader that starts the app after it.
 */
const inlineScriptSources = [THEME_SCRIPT, APP_LOADER_SCRIPT].map(
  (script) => `'sha256-${createHash("sha256").update(script).digest("base64")}'`,
);

type AppOptions = { lifecycle?: Pick<Lifecycle, "draining"> };

/**
 * The API paths whose writes change tables the catalogue channel announces (server/db/migrations/0010 and on):
 * what the shop shows of its products, combos, pages, settings, details, COD rules and approved reviews.
 */
const CATALOGUE_WRITES =
  /^\/api\/(admin\/(products|product-images|stock|tax|pages|combos|shop|settings|cod-rules|cod-confirm|reviews)|reviews)(\/|$)/;

/** The shop as a Hono app, for in-process requests (tests, the page renderer's API calls). */
export function createApp(deps: Deps, options: AppOptions = {}) {
  return createShop(deps, options).app;
}

/**
 * The shop, and the node request handler that serves it over HTTP: kept answers replayed in front of the
 * app (server/replay.ts), everything else through it.
 */
export function createShop(
  deps: Deps,
  options: AppOptions = {},
): { app: Hono; metrics: Metrics; listener: () => RequestListener } {
  const app = new Hono();
  const { lifecycle } = options;
  const memo = sessionMemoOf(deps);
  const metrics = createMetrics({
    pool: deps.db.$client,
    processMetrics: Boolean(deps.env.METRICS_TOKEN),
    sessions: memo,
  });
  const replay = createReplay({ catalogue: deps.catalogue, env: deps.env, metrics, lifecycle });
  const personal = createPersonalReplay({ memo, env: deps.env, metrics, lifecycle });
  // Outermost, so what they keep are the headers the app really sent.
  app.use(replay.record);
  app.use(personal.record);
  app.use(observeRequests(deps.env, metrics));
  // After the answer: a step a handler marked is counted for its visitor once the answer is a success.
  app.use("/api/*", deps.funnel.middleware);
  // While shutting down, every answer closes its connection, so keep-alive clients reconnect elsewhere.
  app.use(async (c, next) => {
    await next();
    if (lifecycle?.draining) c.header("Connection", "close");
  });
  app.get("/metrics", metricsHandler(deps.env, metrics));
  // Razorpay Checkout's hosts are allowed only when Razorpay is configured.
  const payments = razorpayCspSources(deps.env);

  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...inlineScriptSources, ...payments.script],
        // React's style={{...}} props are inline styles; inline scripts only by their hashes (above).
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", ...payments.img],
        connectSrc: ["'self'", ...payments.connect],
        ...(payments.frame.length ? { frameSrc: ["'self'", ...payments.frame] } : {}),
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      // One framing policy: nobody frames the shop, which is what frame-ancestors 'none' says to new browsers.
      xFrameOptions: "DENY",
      referrerPolicy: "strict-origin-when-cross-origin",
      xContentTypeOptions: "nosniff",
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use(compressAnswers());
  app.use(limitRequestBodies(deps.env));

  // API answers are personal (carts, sessions) or change with stock: never cached by browsers or proxies,
  // unless the route says otherwise (catalogue answers are revalidated by ETag instead).
  const api = new Hono()
    .use("*", async (c, next) => {
      await next();
      if (!c.res.headers.has("Cache-Control")) setAnswerHeader(c, "Cache-Control", "no-store");
    })
    .use("*", requireSameOriginJson(deps.env))
    // What this instance remembers of a cart (decision 069) hears of a change by NOTIFY a few milliseconds
    // after the answer: forgotten at once after any change a signed-in shopper asked for, so their next
    // read is never older than the answer they were given.
    .use("*", async (c, next) => {
      await next();
      if (c.req.method === "GET" || c.req.method === "HEAD") return;
      const userId = signedInUserOf(c);
      if (userId) deps.live.forgetCart(userId);
    })
    // So does what it keeps of the catalogue (decision 026): after a change made here to what the shop shows (a
    // product, its stock or tax, a page, a combo, the shop's details and settings, the COD rules, a review), it
    // is forgotten before the answer, so the tab that saved reads the change back at once, wherever its NOTIFY is.
    .use("*", async (c, next) => {
      await next();
      if (c.req.method === "GET" || c.req.method === "HEAD" || !c.res.ok) return;
      if (CATALOGUE_WRITES.test(c.req.path)) deps.catalogue.changedHere();
    })
    .use("/auth/*", checkAuthBodyText());
  api
    .get("/health", (c) => c.json({ status: "ok" }))
    .get("/ready", async (c) => {
      if (lifecycle?.draining) throw httpError(503, "shutting_down", "This instance is shutting down.");
      try {
        await deps.db.execute(sql`select 1`);
      } catch {
        throw httpError(503, "database_unavailable", "The database cannot be reached.");
      }
      return c.json({ status: "ready" });
    })
    .on(["GET", "POST"], "/auth/*", async (c) => {
      const answer = await withErrorBody(await deps.auth.handler(withClientAddress(c, deps.env)));
      if (c.req.method !== "GET" || c.req.path !== "/api/auth/get-session" || c.req.url.includes("?")) {
        return answer;
      }
      // Answered from the session copy the request carried (a refused copy is expired by a Set-Cookie): the
      // same cookies get the same answer while the copy would still be accepted.
      const cookies = memo.cookiesOf(c.req.header("cookie"));
      // A session read from the database comes with a fresh copy: the next request carrying it is known at once.
      if (answer.status === 200 && answer.headers.has("set-cookie")) {
        memo.rememberIssued(c.req.header("cookie"), answer.headers.getSetCookie());
      }
      if (!cookies || answer.status !== 200 || answer.headers.has("set-cookie") || !memo.remember(cookies)) {
        return answer;
      }
      const body = new Uint8Array(await answer.arrayBuffer());
      markPersonal(c, { body: () => body, still: () => true });
      return new Response(body, answer);
    })
    .route("/account", accountRoutes(deps))
    .route("/admin", adminRoutes(deps))
    .route("/catalogue", catalogueRoutes(deps))
    .route("/products", productRoutes(deps))
    .route("/combos", comboRoutes(deps))
    .route("/cart", cartRoutes(deps))
    .route("/discounts", discountRoutes(deps))
    .route("/admin/discount-codes", adminDiscountCodeRoutes(deps))
    .route("/admin/products", adminProductRoutes(deps))
    .route("/admin/product-images", adminProductImageRoutes(deps))
    .route("/admin/audit", adminAuditRoutes(deps))
    .route("/admin/tax", adminTaxRoutes(deps))
    .route("/admin/missed-invoices", missedInvoiceRoutes(deps))
    .route("/admin/shop", adminShopRoutes(deps))
    .route("/admin/settings", adminSettingsRoutes(deps))
    .route("/admin/pages", adminContentRoutes(deps))
    .route("/content", contentRoutes(deps))
    .route("/admin/combos", adminComboRoutes(deps))
    .route("/admin/staff", adminStaffRoutes(deps))
    .route("/config", configRoutes(deps))
    .route("/contact", contactRoutes(deps))
    .route("/questions", questionRoutes(deps))
    .route("/reviews", reviewRoutes(deps))
    .route("/admin/questions", adminQuestionRoutes(deps))
    .route("/admin/reviews", adminReviewRoutes(deps))
    .route("/admin/messages", adminMessageRoutes(deps))
    .route("/addresses", addressRoutes(deps))
    .route("/pincodes", pinRoutes())
    .route("/delivery", deliveryCheckRoutes(deps))
    .route("/admin/delivery-rules", adminDeliveryRuleRoutes(deps))
    .route("/checkout", checkoutRoutes(deps))
    .route("/orders", orderRoutes(deps))
    .route("/orders", orderShippingRoutes(deps))
    .route("/shipping", trackingWebhookRoutes(deps))
    .route("/admin/shipping", adminShippingRoutes(deps))
    .route("/guest-orders", guestOrderRoutes(deps))
    .route("/guest-orders", guestOrderShippingRoutes(deps))
    .route("/payments", paymentRoutes(deps))
    .route("/admin/cod-rules", adminCodRuleRoutes(deps))
    .route("/admin/rto", adminRtoRoutes(deps))
    .route("/admin/cod", adminCodRoutes(deps))
    .route("/admin/orders", adminOrderEditRoutes(deps))
    .route("/admin/cod-confirm", adminCodConfirmRoutes(deps))
    .route("/cod-confirm", codConfirmRoutes(deps))
    .route("/messaging", whatsAppWebhookRoutes(deps))
    .route("/admin/orders", adminOrderRoutes(deps))
    .route("/admin/stock", adminStockRoutes(deps))
    .route("/admin/dashboard", adminDashboardRoutes(deps))
    .route("/admin/analytics/funnel", funnelRoutes(deps))
    .route("/admin/analytics", analyticsRoutes(deps))
    .route("/admin/jobs", adminJobRoutes(deps))
    .route("/admin/cart-reminders", adminCartReminderRoutes(deps))
    .route("/marketing-consent", marketingConsentRoutes(deps));

  api.all("*", (c) => {
    throw notFound(`There is no API at ${c.req.method} ${c.req.path}.`);
  });
  app.route("/api", api);

  app.route("/", crawlFileRoutes(deps));
  app.route("/images/uploads", uploadedImageRoutes(deps.db));
  // Nothing else under this folder (nor the folder itself, which "/images/uploads/.." is) is a page of the
  // web app: it is a missing image.
  app.all("/images/uploads/*", () => {
    throw notFound("No such image.");
  });
  app.all("/images/*", (c, next) => {
    if (c.req.path === "/images/") throw notFound("No such image.");
    return next();
  });
  app.route("/", cartReminderPages(deps));
  app.use("/product/:slug", redirectMovedProductPages(deps));
  serveWebApp(app, distDir, deps.catalogue);
  app.onError(handleError);
  let listener: RequestListener | undefined;
  return {
    app,
    metrics,
    // Made on first use: the adapter puts its own Request and Response in place of the global ones, which
    // only a process that serves HTTP needs.
    listener: () => {
      // Outermost, so a product view answered from memory (a kept answer) is counted like any other.
      listener ??= deps.funnel.listener(
        replay.listener(personal.listener(getRequestListener(app.fetch, { hostname: deps.env.HOST }))),
      );
      return listener;
    },
  };
}

/**
 * The built web app: hashed assets cached for a year; public pages rendered on the server, the others
 * the shell (see server/pages/pages.ts). Source maps are never served (the build does not emit them; one
 * left in an older dist stays private).
 */
export function serveWebApp(app: Hono, root = distDir, cache?: CatalogueCache) {
  app.use("*", async (c, next) => {
    if (c.req.path.endsWith(".map")) throw notFound("No such file.");
    await next();
  });
  app.use("/assets/*", async (c, next) => {
    await next();
    if (c.res.ok) c.header("Cache-Control", "public, max-age=31536000, immutable");
  });
  app.use("/images/*", async (c, next) => {
    await next();
    if (c.res.ok) c.header("Cache-Control", "public, max-age=86400");
  });
  const staticFiles = serveStatic({ root, precompressed: true });
  // Only paths naming a file are looked up on disk; page paths (/, /cart) are the SPA's.
  if (existsSync(root)) {
    app.use("/assets/*", hashedAssets(path.join(root, "assets")));
    app.use("*", (c, next) => (path.extname(c.req.path) ? staticFiles(c, next) : next()));
  }

  const indexFile = path.join(root, "index.html");
  const renderPage = createPageHandler(app, indexFile, cache);
  // Once built, the web app stays built: the disk is asked until then, not on every page.
  let built = false;
  app.get("*", (c): Response | Promise<Response> => {
    // A missing file (an old hashed asset, a typo'd image) is a real 404; page paths are the SPA's.
    if (path.extname(c.req.path)) throw notFound("No such file.");
    built ||= existsSync(indexFile);
    if (!built) {
      return c.text("The web app has not been built. Run `npm run build` (npm start does it for you).", 503);
    }
    return renderPage(c);
  });
}
