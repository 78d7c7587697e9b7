/**
 * @mandi/sdk/testing: the one harness for a module's tests, first-party or third-party alike. A test
 * host is a real platform (sandbox, bus, job queue, HTTP, PostgreSQL) with the module installed in a
 * tenant, and a narrow API for what a test needs beyond the module's own operations and routes:
 * time (clock), schedules (runSchedules, runSchedule), events (emit, settle, delivery, redeliver),
 * mail (inbox) and read-only SQL for assertions. A module's tests import this and the SDK, nothing
 * of core or the project's test/ (eslint.config.mjs holds them to it).
 */
export {
  createTestHost,
  type CallOptions,
  type DeliveryState,
  type StandInOptions,
  type SqlParams,
  type SqlRunner,
  type TestClock,
  type TestHost,
  type TestHostOptions,
  type TestMail,
} from './test-host';
export { defineFixtureModule, type FixtureModule } from './fixture-module';
export { startSmtpSink, type ReceivedMail, type SmtpSink } from './smtp-sink';
export { closeSockets, connectError, socketClient, type Received, type SocketClient } from './socket-client';
