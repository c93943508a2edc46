import { eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { escapeHtml } from "../../common/escape-html.ts";
import { formatDate } from "../../common/india-time.ts";
import { THEME_SCRIPT } from "../../common/theme-script.ts";
import { currentUser } from "../auth/session.ts";
import { applyCodeToCart, restoreCartLines } from "../cart/cart.data.ts";
import { discountCodes, leftCarts } from "../db/schema.ts";
import type { Deps } from "../deps.ts";
import { httpError } from "../errors.ts";
import { withOwnersShopName } from "../settings/settings.data.ts";
import { recordConsent, recordWhatsAppConsent } from "./consent.ts";
import { namedLines } from "./left-carts.ts";
import { checkRestoreLink, unsubscribeAddress, unsubscribeMobile } from "./reminder-links.ts";

/**
 * The two pages a cart reminder's links open (docs/decisions/089): the cart brought back, and the unsubscribe
 * that says it worked. They are small pages the server writes whole, outside the web app, so the shopper's
 * first download (its budget spent to the byte) carries nothing for them; they share the shop's colours and
 * its light and dark themes (the theme script is the app's own, allowed by its hash).
 */

/** What the restore script reads: the lines and the code to put in this browser's cart. */
type RestoreData = {
  items: { id: string; kind: "product" | "combo"; name: string; quantity: number }[];
  code: string | null;
};

/**
 * Puts the lines in this browser's cart (localStorage "cart", as web/features/cart/guest-storage.ts keeps it),
 * each at least at the quantity left, and the code in the session's applied code; the cart's merge id is
 * forgotten, as any change to the guest cart does. Served as a file: the page's policy runs no inline script.
 */
const RESTORE_SCRIPT = `(() => {
  var data = JSON.parse(document.getElementById("cart-back-data").textContent);
  var status = document.getElementById("cart-back-status");
  try {
    var kept = [];
    try { kept = (JSON.parse(localStorage.getItem("cart") || "null") || {}).items || []; } catch (_) { kept = []; }
    if (!Array.isArray(kept)) kept = [];
    data.items.forEach(function (line) {
      var same = kept.filter(function (entry) { return entry && entry.id === line.id; })[0];
      if (same) same.quantity = Math.max(same.quantity || 0, line.quantity);
      else kept.push({ id: line.id, kind: line.kind, name: line.name, quantity: line.quantity });
    });
    localStorage.setItem("cart", JSON.stringify({ items: kept.slice(0, 50) }));
    localStorage.removeItem("cartMergeId");
    if (data.code) sessionStorage.setItem("appliedDiscountCode", data.code);
    status.textContent = "Everything you left is in your cart again, on this device.";
  } catch (_) {
    status.textContent = "This browser does not let us keep a cart. Please allow site data, then open the link again.";
  }
})();
`;

const PAGE_STYLE = `
:root{color-scheme:light;--paper:#fafaf9;--card:#fff;--ink:#1c1917;--muted:#57534e;--line:#e7e5e4;--brand:#166534;--brand-soft:#f0fdf4}
html.dark{color-scheme:dark;--paper:#0c0a09;--card:#1c1917;--ink:#f5f5f4;--muted:#a8a29e;--line:#44403c;--brand:#22c55e;--brand-soft:#052e16}
*{box-sizing:border-box}
body{margin:0;background:var(--paper);color:var(--ink);font:16px/1.6 ui-sans-serif,system-ui,"Segoe UI",Roboto,sans-serif}
header{background:#14532d;padding:14px 20px}
header a{color:#fff;font:700 20px Georgia,"Noto Serif",serif;text-decoration:none}
main{max-width:36rem;margin:0 auto;padding:24px 16px 48px}
.card{background:var(--card);border:1px solid var(--line);border-radius:16px;padding:24px}
h1{margin:0 0 8px;font:600 1.75rem/1.25 Georgia,"Noto Serif",serif}
p{margin:0 0 16px}
.muted{color:var(--muted);font-size:.9rem}
ul{list-style:none;margin:0 0 20px;padding:0}
li{display:flex;justify-content:space-between;gap:12px;padding:10px 0;border-bottom:1px solid var(--line)}
.code{background:var(--brand-soft);border:1px dashed var(--brand);border-radius:12px;padding:12px 16px;margin:0 0 20px}
.code strong{font-size:1.15rem;letter-spacing:.05em}
.button{display:inline-flex;align-items:center;justify-content:center;min-height:44px;padding:10px 22px;border-radius:10px;background:#166534;color:#fff;font-weight:600;text-decoration:none}
.button:focus-visible{outline:3px solid var(--ink);outline-offset:2px}
a{color:var(--brand)}
`;

async function page(
  deps: Deps,
  c: Context,
  parts: { title: string; body: string; status?: number; script?: boolean },
) {
  const { SHOP_NAME } = await withOwnersShopName(deps.db, deps.env);
  // A page for one shopper: kept by no cache, shown to no search engine, and its address not passed on.
  c.header("Cache-Control", "no-store");
  c.header("X-Robots-Tag", "noindex");
  c.header("Referrer-Policy", "no-referrer");
  return c.html(
    `<!doctype html>
<html lang="en-IN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(parts.title)} · ${escapeHtml(SHOP_NAME)}</title>
<script>${THEME_SCRIPT}</script>
<style>${PAGE_STYLE}</style>
${parts.script ? '<script src="/cart-back/restore.js" defer></script>' : ""}
</head>
<body>
<header><a href="/">${escapeHtml(SHOP_NAME)}</a></header>
<main><div class="card">
${parts.body}
</div></main>
</body>
</html>
`,
    (parts.status ?? 200) as 200,
  );
}

const restoreParams = z.object({ id: z.uuid() });
const restoreQuery = z.object({ e: z.string().max(20).default(""), s: z.string().max(100).default("") });
const unsubscribeQuery = z.object({
  a: z.string().max(400).default(""),
  m: z.string().max(20).default(""),
  s: z.string().max(100).default(""),
});

/** A browser gets a page that says what went wrong; any other client the API's error shape. */
const wantsPage = (c: Context) => c.req.header("Accept")?.includes("text/html") ?? false;

const notOurs = (deps: Deps, c: Context, what: string) => {
  if (!wantsPage(c)) throw httpError(404, "not_found", `${what} Use the link in the e-mail as it came.`);
  return page(deps, c, {
    title: "Link not recognised",
    status: 404,
    body: `<h1>This link is not one we sent</h1>
<p>${what} Please use the link in the e-mail as it came, or write to us.</p>
<a class="button" href="/">Go to the shop</a>`,
  });
};

export function cartReminderPages(deps: Deps) {
  const unsubscribe = async (c: Context): Promise<{ email: string | null; mobile?: string }> => {
    const query = unsubscribeQuery.safeParse(c.req.query());
    // A WhatsApp reminder's link names the number, and takes back the yes given for WhatsApp (decision 096).
    const mobile = query.success && query.data.m ? unsubscribeMobile(deps.authSecret, query.data) : null;
    if (mobile) {
      await recordWhatsAppConsent(deps.db, {
        mobile,
        userId: null,
        consented: false,
        source: "unsubscribe_link",
      });
      return { email: null, mobile };
    }
    const email = query.success ? unsubscribeAddress(deps.authSecret, query.data) : null;
    if (!email) return { email: null };
    // The mail app's own button (List-Unsubscribe-Post) is the same no, recorded as coming from there.
    await recordConsent(deps.db, {
      email,
      userId: null,
      consented: false,
      source: c.req.method === "POST" ? "mail_client" : "unsubscribe_link",
    });
    return { email };
  };

  return new Hono()
    .get("/cart-back/restore.js", (c) => {
      c.header("Content-Type", "text/javascript; charset=utf-8");
      c.header("Cache-Control", "public, max-age=3600");
      return c.body(RESTORE_SCRIPT);
    })
    .get("/cart-back/:id", async (c) => {
      const params = restoreParams.safeParse(c.req.param());
      const query = restoreQuery.safeParse(c.req.query());
      if (!params.success || !query.success) return notOurs(deps, c, "It is not a cart link of ours.");
      const check = checkRestoreLink(deps.authSecret, { id: params.data.id, ...query.data });
      if (check === "wrong") return notOurs(deps, c, "It is not a cart link of ours.");
      const [row] = await deps.db.select().from(leftCarts).where(eq(leftCarts.id, params.data.id));
      if (check === "expired" || !row) {
        if (!wantsPage(c)) throw httpError(410, "link_expired", "This cart link has expired.");
        return page(deps, c, {
          title: "Link expired",
          status: 410,
          body: `<h1>This cart link has expired</h1>
<p>We keep a cart's link for a week. Everything is still in the shop.</p>
<a class="button" href="/">Go to the shop</a>`,
        });
      }
      const lines = await namedLines(deps.db, row.items ?? []);
      const [code] = row.discountCode
        ? await deps.db
            .select({
              code: discountCodes.code,
              percent: discountCodes.percent,
              endsAt: discountCodes.endsAt,
              timesUsed: discountCodes.timesUsed,
            })
            .from(discountCodes)
            .where(eq(discountCodes.code, row.discountCode))
        : [];
      const usableCode =
        code && code.timesUsed === 0 && (!code.endsAt || code.endsAt > new Date()) ? code : null;
      // Opened where its shopper is signed in: the saved cart gets its lines back, and the code applied.
      const user = row.userId ? await currentUser(deps, c) : null;
      const intoAccount = user !== null && user.id === row.userId;
      if (intoAccount) {
        await restoreCartLines(deps.db, user.id, lines);
        if (usableCode) await applyCodeToCart(deps.db, user.id, usableCode.code).catch(() => undefined);
      }
      const data: RestoreData = {
        items: intoAccount ? [] : lines.map(({ id, kind, name, quantity }) => ({ id, kind, name, quantity })),
        code: intoAccount ? null : (usableCode?.code ?? null),
      };
      const list = lines
        .map((line) => `<li><span>${escapeHtml(line.name)}</span><span>× ${line.quantity}</span></li>`)
        .join("");
      const codeBox = usableCode
        ? `<div class="code"><strong>${escapeHtml(usableCode.code)}</strong><br>${usableCode.percent}% off this order${usableCode.endsAt ? `, until ${escapeHtml(formatDate(usableCode.endsAt))}` : ""}. It is applied in your cart; yours alone, once.</div>`
        : "";
      return page(deps, c, {
        title: "Your cart is back",
        script: !intoAccount,
        body: `<h1>Your cart is back</h1>
<p id="cart-back-status" role="status">${
          intoAccount
            ? "Everything you left is in your cart again."
            : "Bringing your cart back… (this needs JavaScript switched on)"
        }</p>
${lines.length ? `<ul aria-label="In your cart">${list}</ul>` : "<p>The items you left are no longer sold, sorry.</p>"}
${codeBox}
<a class="button" href="/cart">Go to my cart</a>
<script type="application/json" id="cart-back-data">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>`,
      });
    })
    .get("/unsubscribe", async (c) => {
      const { email, mobile } = await unsubscribe(c);
      if (mobile) {
        return page(deps, c, {
          title: "Unsubscribed",
          body: `<h1>You are unsubscribed</h1>
<p role="status">We will send no more cart reminders or offers on WhatsApp to <strong>${escapeHtml(`${mobile.slice(0, 5)} ${mobile.slice(5)}`)}</strong>, from now on.</p>
<p class="muted">Order updates you asked for on WhatsApp still come: they are not marketing. Changed your mind? Tick “Remind me on WhatsApp” at checkout.</p>
<a class="button" href="/">Go to the shop</a>`,
        });
      }
      if (!email) return notOurs(deps, c, "It is not an unsubscribe link of ours.");
      return page(deps, c, {
        title: "Unsubscribed",
        body: `<h1>You are unsubscribed</h1>
<p role="status">We will send no more cart reminders or offers to <strong>${escapeHtml(email)}</strong>, from now on.</p>
<p class="muted">Mails about your orders (confirmations, delivery) still come: they are not marketing. Changed your mind? Tick “Remind me” on your account page or at checkout.</p>
<a class="button" href="/">Go to the shop</a>`,
      });
    })
    .post("/unsubscribe", async (c) => {
      const { email, mobile } = await unsubscribe(c);
      if (!email && !mobile) throw httpError(404, "not_found", "It is not an unsubscribe link of ours.");
      return c.json({ unsubscribed: true });
    });
}
