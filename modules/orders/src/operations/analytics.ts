/** orders operations: analytics read from the materialized views, and their refresh. */
import { operation, Type } from '../../../../sdk';
import { CodVsPrepaid, Dashboard, Fulfillment, Products, Refreshed, Revenue, Sources, Stats } from '../outputs';
import { codVsPrepaid, dashboard, fulfillment, products, refreshAnalytics, revenue, sources } from '../analytics';
import { AnalyticsRange, AnalyticsRangeProps, ScheduleTrigger } from '../schemas';
import { getStats } from '../stats';

export const analyticsOperations = {
  analytics_dashboard: operation({
    description: 'Total orders, revenue, average order value, unique customers, breakdowns by status and payment status.',
    permission: 'orders.view',
    ai_tool: false,
    input: AnalyticsRange,
    output: Dashboard,
    http: { method: 'GET', path: '/orders/analytics/dashboard' },
    handler: dashboard,
  }),
  analytics_revenue: operation({
    description: 'Daily order counts and revenue.',
    permission: 'orders.view',
    ai_tool: false,
    input: AnalyticsRange,
    output: Revenue,
    http: { method: 'GET', path: '/orders/analytics/revenue' },
    handler: revenue,
  }),
  analytics_fulfillment: operation({
    description: 'Delivery, cancellation and RTO rates.',
    permission: 'orders.view',
    ai_tool: false,
    input: AnalyticsRange,
    output: Fulfillment,
    http: { method: 'GET', path: '/orders/analytics/fulfillment' },
    handler: fulfillment,
  }),
  analytics_sources: operation({
    description: 'Orders and revenue by source module.',
    permission: 'orders.view',
    ai_tool: false,
    input: AnalyticsRange,
    output: Sources,
    http: { method: 'GET', path: '/orders/analytics/sources' },
    handler: sources,
  }),
  analytics_products: operation({
    description: 'Top products by quantity (or revenue with sort=revenue).',
    permission: 'orders.view',
    ai_tool: false,
    input: Type.Object(
      {
        ...AnalyticsRangeProps,
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
        sort: Type.Optional(Type.StringEnum(['quantity', 'revenue'], { default: 'quantity' })),
      },
      { additionalProperties: false },
    ),
    output: Products,
    http: { method: 'GET', path: '/orders/analytics/products' },
    handler: products,
  }),
  analytics_cod_vs_prepaid: operation({
    description: 'COD versus prepaid count and revenue.',
    permission: 'orders.view',
    ai_tool: false,
    input: AnalyticsRange,
    output: CodVsPrepaid,
    http: { method: 'GET', path: '/orders/analytics/cod-vs-prepaid' },
    handler: codVsPrepaid,
  }),
  getStats: operation({
    description:
      'Order statistics of a date range in one answer: total orders, revenue, average order value, unique customers, counts by status and payment status, delivery/cancellation/RTO rates, COD versus prepaid.',
    permission: 'orders.view',
    input: AnalyticsRange,
    output: Stats,
    http: { method: 'GET', path: '/orders/stats' },
    handler: getStats,
  }),
  refresh_analytics: operation({
    description: 'Refreshes the analytics materialized views concurrently (also run every 15 minutes by the schedule analytics_refresh).',
    permission: 'orders.manage',
    ai_tool: false,
    input: ScheduleTrigger,
    output: Refreshed,
    http: { method: 'POST', path: '/orders/analytics/refresh' },
    handler: refreshAnalytics,
  }),
};
