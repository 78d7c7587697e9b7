/**
 * Bulk file work for modules (issue 9: CSV import and export): uploads of manifest routes with
 * `upload`, the `files.process_csv` job, and streamed responses of routes with `stream`. The module
 * never holds a file or a stream: the host reads and writes them and feeds the module bounded pieces.
 */
import path from 'node:path';
import type { Request, Response } from 'express';
import type { HttpRoute } from '../../sdk/manifest';
import type { Bus } from '../bus/bus';
import type { JobQueue } from '../drivers';
import type { Logger } from '../logger';
import { registerCsvJobs, type Broadcast } from './csv-jobs';
import { CsvStreams, type FetchPage } from './csv-stream';
import { JobJournal } from './job-journal';
import { registerUploadOperations } from './upload-operations';
import { UploadStore } from './uploads';

const SWEEP_EVERY_MS = 3600_000;

export interface Bulk {
  uploads: UploadStore;
  /**
   * Runs a route with `upload`: receives the file, calls `run` with what stands for the request body
   * (the form fields plus `upload`), and deletes the file again if `run` fails.
   */
  withUpload<T>(req: Request, tenantId: string, route: HttpRoute, run: (body: Record<string, unknown>) => Promise<T>): Promise<T>;
  /** Answers a route with `stream` by paging through its page operation. */
  stream(res: Response, route: HttpRoute, fetchPage: FetchPage): Promise<void>;
  stop(): void;
}

/** `broadcast` reaches the uploading user's sockets with a job's progress (realtime). */
export function createBulk(deps: { dataDir: string; bus: Bus; queue: JobQueue; broadcast: Broadcast; logger: Logger }): Bulk {
  const logger = deps.logger.child({ part: 'bulk' });
  const root = path.join(deps.dataDir, 'uploads');
  const uploads = new UploadStore(root);
  registerUploadOperations(deps.bus, uploads);
  // Resuming jobs a dead in-process node left runs in the background (it logs its own failures).
  // The root logger: csv-jobs binds its own `part` (one `part` key per log line).
  void registerCsvJobs({ bus: deps.bus, queue: deps.queue, uploads, journal: new JobJournal(root), broadcast: deps.broadcast, logger: deps.logger });
  const streams = new CsvStreams(logger);
  const sweep = setInterval(() => void uploads.sweep().catch((err: unknown) => logger.warn({ err }, 'upload sweep failed')), SWEEP_EVERY_MS);
  sweep.unref();

  return {
    uploads,
    async withUpload(req, tenantId, route, run) {
      const module = route.operation.split('.')[0]!;
      const { upload, fields } = await uploads.receive(req, tenantId, module, route.upload!);
      try {
        return await run({ ...fields, upload });
      } catch (err) {
        await uploads.remove(tenantId, upload.id);
        throw err;
      }
    },
    // "Up to 2 workers" (spec 3 Limits) is per node and per route, whichever tenant asks.
    stream: (res, route, fetchPage) => streams.serve(res, `${route.method} ${route.path}`, route.stream!, fetchPage),
    stop: () => clearInterval(sweep),
  };
}
