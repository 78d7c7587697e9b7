import { catalogTools, inferredPermission } from './ai-tools';

describe('spec 2 Tool discovery rule 2: the permission a tool needs, inferred from its name', () => {
  test.each([
    ['orders.get', 'orders.view'],
    ['orders.getStats', 'orders.view'],
    ['customers.search', 'customers.view'],
    ['orders.analytics_stats', 'orders.view'],
    ['orders.create_payment_link', 'orders.create'],
    ['orders.update_status', 'orders.manage'],
    ['orders.processRefund', 'orders.manage'],
    ['stock.reserve', 'stock.manage'],
    ['orders.delete_webhook', 'orders.delete'],
    ['orders.cancel', 'orders.delete'],
    ['orders.list_shipments', 'orders.view'],
  ])('%s needs %s', (name, permission) => {
    expect(inferredPermission(name)).toBe(permission);
  });

  // "containing" as the spec words it: any part of the method name, in any case, the words checked in the spec's order.
  test.each([
    ['ledger.update_budget', 'ledger.view', '"budget" contains "get", and get comes first'],
    ['orders.bulkCreate', 'orders.create', 'camelCase: "Create" is "create"'],
    ['orders.preprocess_feed', 'orders.manage', 'inside a word'],
    ['orders.reserved_stock', 'orders.manage', 'a longer word'],
    ['orders.cancellation_reasons', 'orders.delete', 'a longer word'],
    ['orders.sales_stats', 'orders.view', 'Stats in lower case'],
    ['budgets.delete', 'budgets.delete', 'the module alias is not searched (docs/decisions/ai.md)'],
    ['widgets.create', 'widgets.create', 'the module alias is not searched (docs/decisions/ai.md)'],
  ])('%s needs %s: %s', (name, permission) => {
    expect(inferredPermission(name)).toBe(permission);
  });

  test('a tool needs both the inferred permission and the operation\'s own; ai_tool: false and a public route\'s operation are no tools', () => {
    const tools = catalogTools('orders', {
      api: {
        provides: [
          { name: 'orders.cancel', description: 'Cancels.', permission: 'orders.manage' },
          { name: 'orders.get', description: 'One order.', permission: 'orders.view' },
          { name: 'orders.sync', description: 'Nightly.', ai_tool: false },
          { name: 'orders.gateway_callback', description: 'A gateway calls back.' },
        ],
      },
      http: { routes: [{ method: 'POST', path: '/orders-gateway/callback', operation: 'orders.gateway_callback', public: true }] },
    });
    expect(tools).toEqual([
      { tool: { name: 'orders.cancel', module: 'orders', description: 'Cancels.' }, needs: ['orders.delete', 'orders.manage'] },
      { tool: { name: 'orders.get', module: 'orders', description: 'One order.' }, needs: ['orders.view'] },
    ]);
  });
});
