import { lazy, Suspense } from "react";
import { type LoaderFunctionArgs, useLoaderData } from "react-router";
import type { AdminSummary } from "../../common/admin.ts";
import type { AfterTheOrder, SalesAnswer, WorkToDo } from "../../common/analytics.ts";
import type { CartReminderReport } from "../../common/cart-reminders.ts";
import type { FunnelFigures } from "../../common/funnel.ts";
import type { MissedInvoices } from "../../common/schemas/missed-invoices.ts";
import { WorkToDoList } from "../features/analytics/work-to-do.tsx";
import { AdminDashboard, loadDashboardFigures } from "../features/orders/admin-dashboard.tsx";
import { MissedInvoicesPanel } from "../features/orders/missed-invoices.tsx";
import { api, isApiError, toQuery } from "../lib/api.ts";
import { privatePage, type RouteHandle } from "../lib/document-head.ts";
import { requireAdminUser } from "../lib/session.ts";

// The charts' code (visx) loads only here, after the admin's own chunk: never in a shopper's pages.
const SalesAtAGlance = lazy(() => import("../features/analytics/sales-at-a-glance.tsx"));
const AfterTheOrderPanel = lazy(() => import("../features/analytics/after-the-order.tsx"));
const FunnelPanel = lazy(() => import("../features/analytics/funnel.tsx"));
const CartsLeftBehindPanel = lazy(() => import("../features/analytics/carts-left-behind.tsx"));

/** The sales figures for the period in the address; a period the API refuses falls back to the last 7 days. */
async function loadSales(url: URL): Promise<{ answer: SalesAnswer; refused: string | null }> {
  const params = url.searchParams;
  const query = toQuery({ period: params.get("period"), from: params.get("from"), to: params.get("to") });
  try {
    return { answer: await api<SalesAnswer>(`/admin/analytics/sales${query}`), refused: null };
  } catch (error) {
    if (!isApiError(error) || error.status !== 400) throw error;
    return { answer: await api<SalesAnswer>("/admin/analytics/sales"), refused: error.message };
  }
}

/**
 * What happened after the orders, for the same period as the sales (the address's, or the last 7 days when the
 * API refuses it); nothing when the owner has not shared the figures with this member of staff (403).
 */
async function loadAfterOrder(url: URL): Promise<AfterTheOrder | null> {
  const params = url.searchParams;
  const query = toQuery({ period: params.get("period"), from: params.get("from"), to: params.get("to") });
  try {
    return await api<AfterTheOrder>(`/admin/analytics/after-order${query}`);
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.status === 403) return null;
    if (error.status !== 400) throw error;
    return await api<AfterTheOrder>("/admin/analytics/after-order");
  }
}

/** The funnel for the same period, read by the same rule as the sales (nothing on a 403). */
async function loadFunnel(url: URL): Promise<FunnelFigures | null> {
  const params = url.searchParams;
  const query = toQuery({ period: params.get("period"), from: params.get("from"), to: params.get("to") });
  try {
    return await api<FunnelFigures>(`/admin/analytics/funnel${query}`);
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.status === 403) return null;
    if (error.status !== 400) throw error;
    return await api<FunnelFigures>("/admin/analytics/funnel");
  }
}

/** The carts left behind for the same period; nothing for staff the owner has not shared the sales with. */
async function loadLeftCarts(url: URL): Promise<{ report: CartReminderReport; query: string } | null> {
  const params = url.searchParams;
  const query = toQuery({ period: params.get("period"), from: params.get("from"), to: params.get("to") });
  try {
    return { report: await api<CartReminderReport>(`/admin/cart-reminders/report${query}`), query };
  } catch (error) {
    if (!isApiError(error)) throw error;
    if (error.status === 403) return null;
    if (error.status !== 400) throw error;
    return { report: await api<CartReminderReport>("/admin/cart-reminders/report"), query: "" };
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdminUser(request);
  const url = new URL(request.url);
  const [summary, orders, missed, work, sales, afterOrder, funnel, leftCarts] = await Promise.all([
    api<AdminSummary>("/admin/summary"),
    loadDashboardFigures(),
    api<MissedInvoices>("/admin/missed-invoices"),
    api<WorkToDo>("/admin/analytics/work"),
    loadSales(url),
    loadAfterOrder(url),
    loadFunnel(url),
    loadLeftCarts(url),
  ]);
  return {
    summary,
    orders,
    missed,
    work,
    sales,
    afterOrder,
    funnel,
    leftCarts,
    isOwner: admin.role === "owner",
  };
}

const count = new Intl.NumberFormat("en-IN");

export function Component() {
  const { summary, orders, missed, work, sales, afterOrder, funnel, leftCarts, isOwner } =
    useLoaderData<typeof loader>();
  const figures = [
    {
      label: "Customers",
      value: summary.customers,
      note: `${count.format(summary.newCustomersLast7Days)} new in the last 7 days`,
    },
    {
      label: "Products on sale",
      value: summary.products,
      note: `${count.format(summary.productsOutOfStock)} out of stock`,
    },
    { label: "Combos on sale", value: summary.combos, note: "Bundles in Combos & Gifting" },
    { label: "Admins", value: summary.admins, note: "Accounts with admin access" },
  ];
  return (
    <div className="space-y-8">
      <h1 className="font-serif text-3xl font-semibold">Dashboard</h1>
      <MissedInvoicesPanel missed={missed} isOwner={isOwner} />
      <WorkToDoList work={work} />
      {sales.answer.visible ? (
        <Suspense fallback={<p className="text-sm">Loading the sales figures…</p>}>
          {sales.refused ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              That period could not be shown ({sales.refused}); here are the last 7 days.
            </p>
          ) : null}
          <SalesAtAGlance
            figures={sales.answer.figures}
            staffSeeSales={sales.answer.staffSeeSales}
            canShare={sales.answer.canShare}
          />
          {afterOrder ? <AfterTheOrderPanel figures={afterOrder} /> : null}
          {funnel ? <FunnelPanel figures={funnel} /> : null}
          {leftCarts ? <CartsLeftBehindPanel report={leftCarts.report} query={leftCarts.query} /> : null}
        </Suspense>
      ) : null}
      <AdminDashboard figures={orders} />
      <section aria-labelledby="figures">
        <h2 id="figures" className="sr-only">
          Figures
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
          {figures.map((figure) => (
            <div
              key={figure.label}
              className="rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900"
            >
              <dt className="text-sm font-medium text-stone-600 dark:text-stone-400">{figure.label}</dt>
              <dd className="mt-1 font-serif text-3xl font-semibold">{count.format(figure.value)}</dd>
              <dd className="mt-1 text-sm text-stone-600 dark:text-stone-400">{figure.note}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}

export const handle: RouteHandle = { meta: privatePage("Admin: dashboard") };
