/**
 * Bulk file work for modules (CSV import and export, spec 3's product and order imports): uploads of manifest routes with
 * `upload`, the `files.process_csv` job, and streamed responses of routes with `stream`. The module
 * never holds a file or a stream: the host reads and writes them and feeds the module bounded pieces.
 */
import path from 'node:path';
import type { Bus } from '../../kernel/bus/bus';
import type { JobQueue } from '../../kernel/drivers';
import type { ModuleFileTransfers } from '../../kernel/modules/file-transfers';
import type { Logger } from '../../kernel/logger';
import { registerCsvJobs, type Broadcast } from './csv-jobs';
import { CsvStreams } from './csv-stream';
import { JobJournal } from './job-journal';
import { registerUploadOperations } from './upload-operations';
import { UploadStore } from './uploads';

const SWEEP_EVERY_MS = 3600_000;

export interface Bulk extends ModuleFileTransfers {
  uploads: UploadStore;
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
