/**
 * Creating notifications (spec 1, Notification and Notifications, delivery rules): store one row per
 * recipient, then queue the `.notification.created` broadcast to each `private-user.{userId}` channel
 * and the pushes to their devices.
 *
 * The spec's known failure: a notification created from a route outside tenant context (public webhook
 * and widget routes) is stored but its broadcast is lost. Here that cannot happen: `send` takes the
 * tenant as an argument (never from ambient state), runs the creation inside that tenant's context,
 * and the queued broadcast carries the tenant id in its job data, so the worker that sends it, on any
 * node and with no request around it, knows where the notification belongs.
 */
import type { AuthService } from '../../kernel/auth/auth-service';
import type { Clock } from '../../kernel/clock';
import { currentContext, runWithContext } from '../../kernel/context';
import type { CentralDb } from '../../kernel/data/central-db';
import type { TenantDatabases } from '../../kernel/data/tenant-databases';
import type { Job, JobQueue, Realtime } from '../../kernel/drivers';
import { userChannel } from '../../kernel/drivers/realtime';
import { notFound } from '../../kernel/errors';
import type { Logger } from '../../kernel/logger';
import type { TenantService } from '../../kernel/tenancy/tenant-service';
import type { Notification } from './notification';
import type { NotificationStore } from './notification-store';
import type { PushDispatcher } from './push/push-dispatcher';
import { Recipients } from './recipients';
import { contentOf, targetOf, type SendInput } from './send-input';

export const BROADCAST_QUEUE = 'notifications.broadcast';
export const CREATED_EVENT = '.notification.created';
/** Notifications per broadcast job: one send to all members becomes a few jobs, not thousands. */
const BROADCAST_CHUNK = 100;

interface BroadcastJob {
  tenantId: string;
  notifications: Notification[];
}

export interface SendResult {
  count: number;
  notifications: Notification[];
}

export interface NotificationServiceDeps {
  central: CentralDb;
  tenantDbs: TenantDatabases;
  tenants: TenantService;
  auth: AuthService;
  queue: JobQueue;
  store: NotificationStore;
  push: PushDispatcher;
  realtime: Realtime;
  clock: Clock;
  logger: Logger;
}

export class NotificationService {
  private readonly recipients: Recipients;
  constructor(private readonly deps: NotificationServiceDeps) {
    this.recipients = new Recipients(deps.central, deps.auth);
  }

  start(concurrency = 16): void {
    this.deps.queue.process<BroadcastJob, { sent: number }>(BROADCAST_QUEUE, concurrency, (job) => this.broadcast(job));
    this.deps.push.start();
  }

  /** Creates the notification for every recipient of `input` in tenant `tenantId` (an id or alias). */
  async send(tenantId: string, input: SendInput): Promise<SendResult> {
    const target = targetOf(input);
    const content = contentOf(input);
    const tenant = await this.deps.tenants.resolve(tenantId);
    if (!tenant || tenant.status !== 'active') throw notFound('Tenant not found.', { tenant: tenantId });
    return runWithContext({ ...currentContext(), tenant }, async () => {
      const userIds = await this.recipients.resolve(tenant.id, target);
      const created = await this.deps.store.insertForUsers(tenant.id, userIds, content, this.deps.clock.date());
      await this.queueDelivery(tenant.id, created);
      return { count: created.length, notifications: created };
    });
  }

  /**
   * Marks read, for every recipient, the notifications of `module` sent under `groupKey`: the thing
   * they asked someone to do is done (a paused graph run approved or rejected, spec 2 Graph flows).
   */
  async resolve(tenantId: string, module: string, groupKey: string): Promise<{ count: number }> {
    return { count: await this.deps.store.resolveGroup(tenantId, module, groupKey, this.deps.clock.date()) };
  }

  private async queueDelivery(tenantId: string, created: Notification[]): Promise<void> {
    const jobs: Promise<unknown>[] = [];
    for (let i = 0; i < created.length; i += BROADCAST_CHUNK) {
      const data: BroadcastJob = { tenantId, notifications: created.slice(i, i + BROADCAST_CHUNK) };
      jobs.push(this.deps.queue.add(BROADCAST_QUEUE, 'created', data, { attempts: 3, backoff: { type: 'fixed', delay: 500 }, removeOnComplete: true, removeOnFail: 1000 }));
    }
    jobs.push(this.deps.push.enqueue(tenantId, created));
    // The rows are stored whatever happens here; failing the call now would invite a retry that
    // duplicates them. A queue failure is an outage to see in the logs, never a silent loss.
    const failures = (await Promise.allSettled(jobs)).filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    for (const f of failures) this.deps.logger.error({ err: f.reason, tenantId }, 'could not queue notification delivery');
  }

  private async broadcast(job: Job<BroadcastJob>): Promise<{ sent: number }> {
    const { realtime } = this.deps;
    const { tenantId, notifications } = job.data;
    for (const n of notifications) realtime.broadcast(tenantId, userChannel(n.user_id), CREATED_EVENT, n);
    return { sent: notifications.length };
  }
}
