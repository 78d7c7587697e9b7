/** The live chat tables (spec 2, Live chat records) and the migration that keeps agents' counters in bounds and makes the assignment lock row. */
import type { Column, Data } from '../../../sdk';

const NOW = { $fn: 'now' } as const;
// Literal types kept (`const` parameters, `satisfies Data`): the row types derive from these columns (records.ts, RowOf).
const col = <const T extends Column['type'], const O extends Omit<Column, 'type'> = Record<never, never>>(type: T, options: O = {} as O) => ({ type, ...options });
const id = () => col('integer', { primaryKey: true, autoIncrement: true });
const flag = (value: boolean) => col('boolean', { nullable: false, default: value });

export const data = {
  models: {
    Widget: {
      table: 'widgets',
      columns: {
        id: id(),
        name: col('string', { length: 100, nullable: false }),
        token: col('string', { length: 64, nullable: false, unique: true }),
        is_active: flag(true),
        primary_color: col('string', { length: 7, nullable: false, default: '#000000' }),
        text_color: col('string', { length: 7, nullable: false, default: '#ffffff' }),
        position: col('string', { length: 20, nullable: false, default: 'bottom-right' }),
        border_radius: col('integer', { nullable: false, default: 12 }),
        launcher_size: col('integer', { nullable: false, default: 60 }),
        launcher_icon: col('string', { length: 50, nullable: false, default: 'chat' }),
        logo_url: col('string', { length: 2048 }),
        welcome_title: col('string', { length: 255, nullable: false, default: 'Hi there!' }),
        welcome_message: col('text', { nullable: false, default: 'How can we help you today?' }),
        input_placeholder: col('string', { length: 255, nullable: false, default: 'Type a message...' }),
        offline_message: col('text'),
        handler_type: col('string', { length: 20, nullable: false, default: 'agent' }),
        handler_id: col('integer'),
        // The workflow a `workflow` handler runs (workflow ids are uuids; handler_id is an integer).
        workflow_id: col('string', { length: 36 }),
        collect_name: flag(true),
        collect_email: flag(true),
        sound_enabled: flag(true),
        show_branding: flag(true),
        allowed_domains: col('json', { nullable: false, default: [] }),
        business_hours: col('json'),
        // The team its conversations are routed to (README, Teams); null: the general queue.
        team_id: col('integer'),
        tenant_id: col('string', { length: 100, nullable: false }),
        created_at: col('datetime', { nullable: false, default: NOW }),
        updated_at: col('datetime', { nullable: false, default: NOW }),
      },
    },
    Visitor: {
      table: 'visitors',
      columns: {
        id: id(),
        session_id: col('string', { length: 64, nullable: false, unique: true }),
        widget_id: col('integer', { nullable: false }),
        name: col('string', { length: 100 }),
        email: col('string', { length: 254 }),
        phone: col('string', { length: 30 }),
        ip_address: col('string', { length: 45 }),
        user_agent: col('string', { length: 500 }),
        referrer: col('string', { length: 2048 }),
        current_page: col('string', { length: 2048 }),
        first_seen_at: col('datetime', { nullable: false, default: NOW }),
        last_seen_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['widget_id'] }, { fields: ['email'] }],
    },
    Conversation: {
      table: 'conversations',
      columns: {
        id: id(),
        widget_id: col('integer', { nullable: false }),
        visitor_id: col('integer', { nullable: false }),
        agent_id: col('integer'),
        status: col('string', { length: 20, nullable: false, default: 'pending' }),
        priority: col('string', { length: 20, nullable: false, default: 'normal' }),
        handler_type: col('string', { length: 20, nullable: false, default: 'agent' }),
        handler_id: col('integer'),
        // The team whose agents alone may be given it (README, Teams); null: any agent.
        team_id: col('integer'),
        metadata: col('json'),
        // What the ai_bot and workflow handlers keep between messages (handlers.ts: HandlerState).
        handler_state: col('json'),
        source_url: col('string', { length: 2048 }),
        source_page_title: col('string', { length: 255 }),
        last_message: col('text'),
        last_message_at: col('datetime'),
        first_response_at: col('datetime'),
        resolved_at: col('datetime'),
        closed_at: col('datetime'),
        rating: col('integer'),
        feedback: col('text'),
        // The typing indicator of each side: whether it shows, and when it was last broadcast (src/typing.ts).
        visitor_typing: flag(false),
        visitor_typing_at: col('datetime'),
        agent_typing: flag(false),
        agent_typing_at: col('datetime'),
        created_at: col('datetime', { nullable: false, default: NOW }),
        updated_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['status', 'id'] }, { fields: ['team_id'] }, { fields: ['agent_id', 'status'] }, { fields: ['visitor_id'] }, { fields: ['widget_id'] }],
    },
    Message: {
      table: 'messages',
      columns: {
        id: id(),
        conversation_id: col('integer', { nullable: false }),
        sender_type: col('string', { length: 10, nullable: false }),
        sender_id: col('integer'),
        sender_name: col('string', { length: 100 }),
        content: col('text', { nullable: false }),
        type: col('string', { length: 20, nullable: false, default: 'text' }),
        metadata: col('json'),
        is_internal: flag(false),
        is_read: flag(false),
        read_at: col('datetime'),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['conversation_id', 'id'] }],
    },
    Agent: {
      table: 'agents',
      columns: {
        id: id(),
        user_id: col('integer', { nullable: false, unique: true }),
        name: col('string', { length: 100, nullable: false }),
        status: col('string', { length: 10, nullable: false, default: 'offline' }),
        max_concurrent_chats: col('integer', { nullable: false, default: 5 }),
        current_chats_count: col('integer', { nullable: false, default: 0 }),
        total_chats_count: col('integer', { nullable: false, default: 0 }),
        total_rating: col('integer', { nullable: false, default: 0 }),
        ratings_count: col('integer', { nullable: false, default: 0 }),
        last_active_at: col('datetime'),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['status'] }],
    },
    // Teams of agents with their own queue (README, Teams).
    Team: {
      table: 'teams',
      columns: {
        id: id(),
        name: col('string', { length: 100, nullable: false, unique: true }),
        description: col('string', { length: 500 }),
        created_at: col('datetime', { nullable: false, default: NOW }),
        updated_at: col('datetime', { nullable: false, default: NOW }),
      },
    },
    TeamMember: {
      table: 'team_members',
      columns: {
        id: id(),
        team_id: col('integer', { nullable: false }),
        agent_id: col('integer', { nullable: false }),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ name: 'team_members_team_agent', fields: ['team_id', 'agent_id'], unique: true }, { fields: ['agent_id'] }],
    },
    // Saved replies (README, Canned responses): agent_id null is the tenant's, else one agent's own;
    // a short code is unique per owner (migration 002).
    CannedResponse: {
      table: 'canned_responses',
      columns: {
        id: id(),
        agent_id: col('integer'),
        short_code: col('string', { length: 50, nullable: false }),
        content: col('text', { nullable: false }),
        created_at: col('datetime', { nullable: false, default: NOW }),
        updated_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['short_code'] }],
    },
    // Labels of the tenant (README, Labels); a name is unique whatever its case (migration 002).
    Label: {
      table: 'labels',
      columns: {
        id: id(),
        name: col('string', { length: 50, nullable: false }),
        color: col('string', { length: 7, nullable: false, default: '#1f93ff' }),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
    },
    ConversationLabel: {
      table: 'conversation_labels',
      columns: {
        id: id(),
        conversation_id: col('integer', { nullable: false }),
        label_id: col('integer', { nullable: false }),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ name: 'conversation_labels_pair', fields: ['conversation_id', 'label_id'], unique: true }, { fields: ['label_id'] }],
    },
    // Files in messages (README, Attachments): the bytes in base64, attached once its message is written.
    Attachment: {
      table: 'attachments',
      columns: {
        id: id(),
        conversation_id: col('integer', { nullable: false }),
        message_id: col('integer'),
        name: col('string', { length: 255, nullable: false }),
        content_type: col('string', { length: 100, nullable: false }),
        size: col('integer', { nullable: false }),
        data: col('text', { nullable: false }),
        is_internal: flag(false),
        created_at: col('datetime', { nullable: false, default: NOW }),
      },
      indexes: [{ fields: ['conversation_id', 'id'] }],
    },
    // One row (made by migration 001), locked by each queue drain: drains take turns (src/assignment.ts).
    AssignmentLock: {
      table: 'assignment_lock',
      columns: { id: col('integer', { primaryKey: true }), locked_at: col('datetime') },
    },
  },
  migrations: [
    { id: '001_assignment', up: 'migrations/001_assignment.up.sql', down: 'migrations/001_assignment.down.sql' },
    { id: '002_inbox_tools', up: 'migrations/002_inbox_tools.up.sql', down: 'migrations/002_inbox_tools.down.sql' },
  ],
} satisfies Data;
