/**
 * Push delivery, as jobs: creating notifications queues one job per notification for the recipient's
 * phones (one request to the push service) and one per browser subscription. Job ids are derived from
 * the notification, so a notification is queued for push at most once however often enqueue runs, and
 * a retry carries the same Idempotency-Key (mobile) or Topic (web) as the first attempt.
 */
import type { Job, JobQueue } from '../../../kernel/drivers';
import type { Logger } from '../../../kernel/logger';
import type { Notification } from '../notification';
import type { DeviceStore } from './device-store';
import type { HttpPushAdapter } from './http-push-adapter';
import { PushDeliveryError, type PushMessage } from './push-message';
import type { WebPushAdapter } from './web-push-adapter';

export const PUSH_QUEUE = 'notifications.push';

type PushJob = { kind: 'mobile'; tenantId: string; notification: Notification } | { kind: 'web'; tenantId: string; notification: Notification; deviceId: string };

export interface PushDispatcherDeps {
  queue: JobQueue;
  devices: DeviceStore;
  mobile?: HttpPushAdapter;
  web?: WebPushAdapter;
  /** Whether the user currently views the screen of path (banner suppression). */
  viewing(tenantId: string, userId: number, path: string): Promise<boolean>;
  logger: Logger;
}

const RETRY = { attempts: 6, backoff: { type: 'exponential' as const, delay: 1000 }, removeOnComplete: 1000, removeOnFail: 1000 };

export class PushDispatcher {
  constructor(private readonly deps: PushDispatcherDeps) {}

  get enabled(): boolean {
    return !!(this.deps.mobile || this.deps.web);
  }

  start(concurrency = 8): void {
    if (this.enabled) this.deps.queue.process<PushJob, unknown>(PUSH_QUEUE, concurrency, (job) => this.handle(job));
  }

  /** Queues the pushes for freshly created notifications (only for recipients that have devices). */
  async enqueue(tenantId: string, notifications: Notification[]): Promise<void> {
    if (!this.enabled || !notifications.length) return;
    const devices = await this.deps.devices.platformsOf(tenantId, [...new Set(notifications.map((n) => n.user_id))]);
    const adds: Promise<string>[] = [];
    for (const n of notifications) {
      const has = devices.get(n.user_id);
      if (!has) continue;
      if (has.mobile && this.deps.mobile) {
        adds.push(this.deps.queue.add<PushJob>(PUSH_QUEUE, 'mobile', { kind: 'mobile', tenantId, notification: n }, { ...RETRY, jobId: `mobile.${tenantId}.${n.id}` }));
      }
      if (this.deps.web) {
        for (const deviceId of has.web) {
          adds.push(
            this.deps.queue.add<PushJob>(PUSH_QUEUE, 'web', { kind: 'web', tenantId, notification: n, deviceId }, { ...RETRY, jobId: `web.${tenantId}.${n.id}.${deviceId}` }),
          );
        }
      }
    }
    await Promise.all(adds);
  }

  private async handle(job: Job<PushJob>): Promise<unknown> {
    const { tenantId, notification } = job.data;
    const message: PushMessage = { tenantId, notification, banner: !(await this.viewingTarget(tenantId, notification)) };
    try {
      if (job.data.kind === 'mobile') return await this.sendMobile(message);
      return await this.sendWeb(message, job.data.deviceId);
    } catch (err) {
      if (err instanceof PushDeliveryError && !err.retryable) {
        this.deps.logger.warn({ err, tenantId, notification: notification.id }, 'push dropped');
        return { dropped: err.message };
      }
      throw err;
    }
  }

  private async sendMobile(m: PushMessage): Promise<unknown> {
    const phones = (await this.deps.devices.listForUser(m.tenantId, m.notification.user_id)).filter((d) => d.platform !== 'web');
    if (!phones.length || !this.deps.mobile) return { sent: 0 };
    const { invalidTokens } = await this.deps.mobile.send(phones, m);
    await this.deps.devices.forgetTokens(m.tenantId, invalidTokens);
    return { sent: phones.length - invalidTokens.length, banner: m.banner };
  }

  private async sendWeb(m: PushMessage, deviceId: string): Promise<unknown> {
    const device = await this.deps.devices.get(m.tenantId, deviceId);
    // Unregistered, or the browser now belongs to someone else: the notification is not theirs.
    if (!device || device.user_id !== m.notification.user_id || !this.deps.web) return { sent: 0 };
    const outcome = await this.deps.web.send(device, m);
    if (outcome === 'gone') await this.deps.devices.forget(m.tenantId, device.id);
    return { sent: outcome === 'delivered' ? 1 : 0, banner: m.banner };
  }

  private async viewingTarget(tenantId: string, n: Notification): Promise<boolean> {
    if (!n.action_url) return false;
    try {
      return await this.deps.viewing(tenantId, n.user_id, n.action_url);
    } catch (err) {
      // Not knowing what the user views must not cost them the push: show the banner.
      this.deps.logger.warn({ err }, 'could not ask sockets what the user views');
      return false;
    }
  }
}
