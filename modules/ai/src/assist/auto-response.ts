/**
 * The out-of-hours first answer (README, Assist; spec 2 auto-responses): when a visitor's first
 * message arrives outside the business hours of this setting, the visitor gets the set message, or
 * the model's answer to that message, once per conversation. Live chat tells other modules of a
 * first message with its event live_chat.conversation_started and writes the answer with
 * live_chat.auto_answer (once per key), so the coupling stays on the bus. The business hours object
 * is spec 2's (Live chat records): live chat checks it and says whether it is open now
 * (live_chat.business_hours_status), so both modules read hours the same way.
 */
import { operation, Type, type HandlerContext, type ModuleError } from '../../../../sdk';
import { invalid } from '../errors';
import { chat } from '../llm';
import { CONFIGURE, VIEW } from '../permissions';
import { readSettings, writeSettings } from '../providers/settings';

const MAX_ANSWER = 2_000;
/** Checked in full by live chat; here only its outline. */
const BusinessHours = Type.Object({ timezone: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: true });

const hoursStatus = (ctx: HandlerContext, hours: Record<string, unknown>) =>
  ctx.host.call<{ open: boolean; problem: string | null }>('live_chat.business_hours_status', { business_hours: hours });
const Settings = Type.Object({
  enabled: Type.Boolean(),
  business_hours: Type.Union([BusinessHours, Type.Null()]),
  answer: Type.StringEnum(['message', 'ai']),
  message: Type.String({ minLength: 1, maxLength: MAX_ANSWER }),
});

interface ConversationStarted {
  conversation_id: number;
  message: { id: number; content: string };
}

/** The model's answer to the first message, or null when it gave none (the set message answers then). */
async function modelAnswer(ctx: HandlerContext, first: string, closed: string): Promise<string | null> {
  try {
    const r = await chat(ctx, {
      feature: 'auto_response',
      temperature: 0.3,
      max_tokens: 400,
      messages: [
        {
          role: 'system',
          content: `You answer a visitor of a shop's live chat while the team is away. Say briefly that the team is offline and will reply when back, and help only with what needs no account or order data. Never promise refunds, prices or discounts. The team's own note: ${closed}`,
        },
        { role: 'user', content: first.slice(0, MAX_ANSWER) },
      ],
    });
    return r.message.content?.trim().slice(0, MAX_ANSWER) || null;
  } catch {
    return null;
  }
}

export async function onConversationStarted(payload: ConversationStarted, ctx: HandlerContext): Promise<void> {
  const s = await readSettings(ctx, 'auto_response');
  if (!s.enabled || !s.business_hours || (await hoursStatus(ctx, s.business_hours)).open) return;
  const content = (s.answer === 'ai' ? await modelAnswer(ctx, payload.message.content, s.message) : null) ?? s.message;
  await ctx.host.call('live_chat.auto_answer', { conversation_id: payload.conversation_id, content, key: 'out_of_hours' });
}

export const autoResponseOperations = {
  get_auto_response: operation({
    description: "The live chat out-of-hours answer: on or off, business hours (spec 2's object), the message, and whether the model answers instead.",
    permission: VIEW,
    ai_tool: false,
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ data: Settings }),
    http: { method: 'GET', path: '/ai/live-chat/auto-response' },
    handler: async (_input, ctx) => ({ data: await readSettings(ctx, 'auto_response') }),
  }),
  update_auto_response: operation({
    description: 'Changes the live chat out-of-hours answer (only the fields given).',
    permission: CONFIGURE,
    ai_tool: false,
    input: Type.Partial(Settings, { additionalProperties: false }),
    output: Type.Object({ data: Settings }),
    http: { method: 'PUT', path: '/ai/live-chat/auto-response' },
    async handler(input, ctx) {
      if (input.business_hours) {
        // Live chat's schema refuses a malformed object (422 with its fields); its check, the rest.
        const problem = await hoursStatus(ctx, input.business_hours).then(
          (r) => r.problem,
          (err: ModuleError & { details?: { errors?: Record<string, string[]> } }) => {
            if (err.code !== 'VALIDATION_FAILED') throw err;
            const fields = Object.entries(err.details?.errors ?? {}).map(([field, m]) => `${field}: ${m.join(', ')}`);
            return fields.length > 0 ? fields.join('; ') : err.message;
          },
        );
        if (problem) throw invalid('business_hours', problem);
      }
      const next = { ...(await readSettings(ctx, 'auto_response')), ...input };
      if (next.enabled && !next.business_hours) throw invalid('business_hours', 'Give the business hours before switching the answer on.');
      return { data: await writeSettings(ctx, 'auto_response', next) };
    },
  }),
};
