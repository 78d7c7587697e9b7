/**
 * The contribution point for the files of module routes with `upload` or `stream` (bulk CSV files):
 * the kernel mounts those routes but reads and writes no file format itself. The part that serves
 * them (core/services/bulk) provides its transfers here; the module routes part collects the point, so it
 * starts after that part whatever order the list gives. Without a provider, such routes dispatch
 * like any other route.
 */
import type { Request, Response } from 'express';
import type { HttpRoute } from '../../../sdk/manifest';
import { definePart, partRef } from '../parts';

/** One page of a streamed route's rows, through its page operation (null: the first page). */
export type FetchPage = (cursor: string | null) => Promise<unknown>;

export interface ModuleFileTransfers {
  /**
   * Runs a route with `upload`: receives the file, calls `run` with what stands for the request body
   * (the form fields plus `upload`), and deletes the file again if `run` fails.
   */
  withUpload<T>(req: Request, tenantId: string, route: HttpRoute, run: (body: Record<string, unknown>) => Promise<T>): Promise<T>;
  /** Answers a route with `stream` by paging through its page operation. */
  stream(res: Response, route: HttpRoute, fetchPage: FetchPage): Promise<void>;
}

export interface FileTransfersPoint {
  provide(transfers: ModuleFileTransfers): void;
  readonly provided: ModuleFileTransfers | undefined;
}

export const fileTransfersRef = partRef<FileTransfersPoint>('moduleFileTransfers');

export const fileTransfersPart = definePart({
  ref: fileTransfersRef,
  init: (): FileTransfersPoint => {
    let provided: ModuleFileTransfers | undefined;
    return {
      provide(transfers) {
        if (provided) throw new Error('module file transfers are provided twice: one part serves bulk files');
        provided = transfers;
      },
      get provided() {
        return provided;
      },
    };
  },
});
