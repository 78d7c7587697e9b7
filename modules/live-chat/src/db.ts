/**
 * Reads shared by the operations, and the retry of optimistic writes. host.db has no row locks: a
 * counter changes with a compare-and-set (`update … where {id, count: read}`), which PostgreSQL
 * re-checks after waiting for a concurrent writer, so two writers never both win; the loser reads
 * again. A DB_CONFLICT or DB_RETRY from the host means the same.
 */
import type { HandlerContext, ModuleError } from '../../../sdk';
import { busy, errorCode, notFound } from './errors';
import type { AgentRow, ConversationRow, LabelRow, TeamRow, VisitorRow, WidgetRow } from './records';

export const widgetById = async (ctx: HandlerContext, id: number) => {
  const w = await ctx.host.db.findOne<WidgetRow>('Widget', { where: { id } });
  if (!w) throw notFound('Widget', id);
  return w;
};

export const conversationById = async (ctx: HandlerContext, id: number) => {
  const c = await ctx.host.db.findOne<ConversationRow>('Conversation', { where: { id } });
  if (!c) throw notFound('Conversation', id);
  return c;
};

export const agentById = async (ctx: HandlerContext, id: number) => {
  const a = await ctx.host.db.findOne<AgentRow>('Agent', { where: { id } });
  if (!a) throw notFound('Agent', id);
  return a;
};

export const teamById = async (ctx: HandlerContext, id: number) => {
  const t = await ctx.host.db.findOne<TeamRow>('Team', { where: { id } });
  if (!t) throw notFound('Team', id);
  return t;
};

export const labelById = async (ctx: HandlerContext, id: number) => {
  const l = await ctx.host.db.findOne<LabelRow>('Label', { where: { id } });
  if (!l) throw notFound('Label', id);
  return l;
};

/** A write a unique index guards: the host's DB_CONFLICT (another writer, maybe at the same moment, holds the name) becomes `taken`. */
export async function unique<T>(write: () => Promise<T>, taken: () => ModuleError): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (errorCode(err) === 'DB_CONFLICT') throw taken();
    throw err;
  }
}

export const visitorById = (ctx: HandlerContext, id: number) => ctx.host.db.findOne<VisitorRow>('Visitor', { where: { id } });

const RETRYABLE = new Set(['DB_CONFLICT', 'DB_RETRY']);

/** Runs attempt until it returns a value other than undefined (undefined: lost a race, read again). */
export async function retrying<T>(what: string, attempt: () => Promise<T | undefined>, times = 50): Promise<T> {
  for (let i = 0; i < times; i++) {
    try {
      const result = await attempt();
      if (result !== undefined) return result;
    } catch (err) {
      if (!RETRYABLE.has((err as { code?: string })?.code ?? '')) throw err;
    }
  }
  throw busy(what);
}
