/** One page of a model's rows and the spec 3 pagination block (current_page, last_page, per_page, total). */
import type { HandlerContext } from '../../../sdk';

export async function findPage<T extends object>(
  ctx: HandlerContext,
  model: string,
  where: Record<string, unknown>,
  order: ReadonlyArray<readonly [Extract<keyof T, string>, 'ASC' | 'DESC']>,
  input: { per_page?: number; page?: number },
) {
  const perPage = input.per_page ?? 20;
  const pageNo = input.page ?? 1;
  const [rows, count] = await Promise.all([
    ctx.host.db.find<T>(model, { where: where as never, order, limit: perPage, offset: (pageNo - 1) * perPage }),
    ctx.host.db.count(model, { where: where as never }),
  ]);
  return { rows, pagination: { current_page: pageNo, last_page: Math.max(1, Math.ceil(count / perPage)), per_page: perPage, total: count } };
}
