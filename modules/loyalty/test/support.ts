/** Shared by the loyalty tests: a test host with the orders fixture, and small helpers around it. */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../../sdk/testing';

export const LOYALTY_DIR = path.resolve(__dirname, '..');
export const ORDERS_FIXTURE_DIR = path.resolve(__dirname, 'fixtures', 'orders');

/** loyalty depends on orders ^1.0.0 and consumes orders.get: the fixture is installed first. */
export function startHost(): Promise<TestHost> {
  return createTestHost({ modulePath: LOYALTY_DIR, withModules: [ORDERS_FIXTURE_DIR] });
}

export interface Order {
  id: string;
  customer_id: string;
  total: string;
  status: string;
}
