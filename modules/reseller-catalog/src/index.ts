/**
 * reseller_catalog (spec 3, Master product; Reseller product pricing; Endpoints, Reseller catalog):
 * the super admin's master catalog (level 0 of the reseller network), the margins each parent sets
 * for its sub-resellers, and the cascade of costs down the chain, worked out one level at a time
 * through the host's related-tenant call (./chain.ts). Also the operations reseller_orders builds
 * chain orders on: quote, reserve_stock, release_stock (README, "For reseller_orders").
 */
import { defineModule } from '../../../sdk';
import { data } from './models';
import { catalogOperations } from './operations/catalog';
import { masterOperations } from './operations/master';
import { stockOperations } from './operations/stock';

export const EVENTS = [
  'reseller_catalog.MasterProductCreated',
  'reseller_catalog.MasterProductUpdated',
  'reseller_catalog.PricingSet',
  'reseller_catalog.StockUpdated',
];

export default defineModule({
  name: 'reseller_catalog',
  version: '1.0.0',
  description: "Reseller network catalog: the super admin's master products, cascading prices set by each level for its sub-resellers, per-level breakdowns and master stock (spec 3).",
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  operations: { ...masterOperations, ...catalogOperations, ...stockOperations },
  permissions: [
    { name: 'catalog.view', description: 'See the products this tenant can sell, at its own cost.' },
    { name: 'catalog.manage_master', description: "Create and edit master products (the super admin's tenant)." },
    { name: 'catalog.set_pricing', description: 'Set the prices of products for sub-resellers.' },
    { name: 'catalog.view_costs', description: 'See the cost breakdown through the chain and the margins.' },
  ],
  events: { publishes: EVENTS },
  graphql: { schema: 'graphql/schema.graphql', resolvers: 'graphql/resolvers.json' },
  mobile: {
    screens: [
      { id: 'reseller_catalog.list', title: 'Catalog', icon: 'package', layout: 'scroll', route: '/reseller-catalog', version: 1 },
      { id: 'reseller_catalog.detail', title: 'Product', icon: 'tag', layout: 'scroll', route: '/reseller-catalog/:id', version: 1 },
    ],
    screenProviders: {
      'reseller_catalog.list': { file: 'screens/reseller_catalog.list.json' },
      'reseller_catalog.detail': { file: 'screens/reseller_catalog.detail.json' },
    },
  },
  data,
  limits: { memory_mb: 64, timeout_ms: 15_000 },
});
