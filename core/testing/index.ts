/**
 * The core's public testing entry: the one thing sdk/testing and the project's test harnesses import
 * of core to run a real platform in a test. It boots a platform on the test PostgreSQL server with
 * the drivers REDIS_URL selects, and drives what a test cannot wait for in real time through the
 * platform's own parts: the clock (platform.clock), due schedules, queued module jobs, event
 * deliveries, and stand-ins for consumed operations registered on the bus. docs/reference/tests-and-ci.md.
 */
export { bootTestPlatform, testServerUrl, type BootOptions, type BootedPlatform } from './boot';
export { testControls, type AuditRow, type DeliveryState, type StandInOptions, type TestControls } from './controls';
export type { Platform } from '../platform';
export type { Config } from '../config';
export { createLogger, type Logger } from '../kernel/logger';
