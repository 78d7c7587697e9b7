/** Input schemas shared by the operations (spec 2, Live chat records: fields, defaults, limits). */
import { Type } from '../../../sdk';
import { AGENT_STATUSES, CONVERSATION_STATUSES, HANDLER_TYPES, POSITIONS, PRIORITIES } from './records';
import { WEEKDAYS } from './business-hours';

/** Input limits of the public widget (spec 2, Limits: widget request rates and sizes not shown; decided here). */
export const LIMITS = {
  messageChars: 5000,
  nameChars: 100,
  metadataBytes: 4096,
  feedbackChars: 2000,
  pageChars: 2048,
} as const;

export const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
export const Uuid = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });
export const Hex = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' });
const HHMM = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' });
const Day = Type.Object({ enabled: Type.Boolean(), start: Type.Optional(HHMM), end: Type.Optional(HHMM) }, { additionalProperties: false });
export const BusinessHours = Type.Object(
  { timezone: Type.String({ minLength: 1, maxLength: 64 }), ...Object.fromEntries(WEEKDAYS.map((d) => [d, Type.Optional(Day)])) },
  { additionalProperties: false },
);
export const Domain = Type.String({ minLength: 1, maxLength: 255, pattern: '^(https?://)?(\\*\\.)?[A-Za-z0-9.-]+(:[0-9]{1,5})?$' });

/** Every widget setting a client may send (POST and PUT); all optional on PUT. */
export const widgetFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  is_active: Type.Boolean(),
  primary_color: Hex,
  text_color: Hex,
  position: Type.StringEnum([...POSITIONS]),
  border_radius: Type.Integer({ minimum: 0, maximum: 100 }),
  launcher_size: Type.Integer({ minimum: 32, maximum: 120 }),
  launcher_icon: Type.String({ minLength: 1, maxLength: 50 }),
  logo_url: Type.Nullable(Type.String({ maxLength: 2048, pattern: '^https://' })),
  welcome_title: Type.String({ maxLength: 255 }),
  welcome_message: Type.String({ maxLength: 2000 }),
  input_placeholder: Type.String({ maxLength: 255 }),
  offline_message: Type.Nullable(Type.String({ maxLength: 2000 })),
  handler_type: Type.StringEnum([...HANDLER_TYPES]),
  handler_id: Type.Nullable(Id),
  workflow_id: Type.Nullable(Uuid),
  collect_name: Type.Boolean(),
  collect_email: Type.Boolean(),
  sound_enabled: Type.Boolean(),
  show_branding: Type.Boolean(),
  allowed_domains: Type.Array(Domain, { maxItems: 50, uniqueItems: true }),
  business_hours: Type.Nullable(BusinessHours),
  team_id: Type.Nullable(Id),
};

export const StatusFilter = Type.String({ pattern: `^(${CONVERSATION_STATUSES.join('|')})(,(${CONVERSATION_STATUSES.join('|')}))*$` });
export const Priority = Type.StringEnum([...PRIORITIES]);
export const AgentStatus = Type.StringEnum([...AGENT_STATUSES]);
export const Page = { page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })), per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) };

/** What the public routes receive from the host besides the fields (the token, the request). */
export const PublicBase = { token: Type.String({ minLength: 20, maxLength: 128 }), _request: Type.Optional(Type.Unknown()) };
export const SessionId = Type.String({ minLength: 20, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
export const Content = Type.String({ minLength: 1, maxLength: LIMITS.messageChars });
