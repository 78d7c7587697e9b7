/**
 * The workflow engine's operations (core/services/workflows: start-operation.ts, sub-workflow-operation.ts,
 * screen-operations.ts, schedule-trigger.ts; spec 2, Workflows).
 */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';
import { JsonObject, Uuid } from './schemas';

export const WORKFLOW_STATUSES = ['draft', 'active', 'paused', 'archived'] as const;
export const TRIGGER_TYPES = ['manual', 'schedule', 'webhook', 'event'] as const;

const WorkflowId = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });
const Run = Type.Object({ execution_id: Type.String(), status: Type.String() });
const paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 15 })),
};
const ListOutput = Type.Object({ data: Type.Array(JsonObject<object>()), meta: JsonObject() });

export const workflowEngineStart = coreContract({
  name: 'workflow_engine.start',
  description: 'Starts one active workflow of the tenant with the given trigger data (once per key when a key is given): {execution_id, status}.',
  permission: 'workflows.execute',
  input: Type.Object({ workflow_id: WorkflowId, data: Type.Optional(JsonObject()), key: Type.Optional(Type.String({ minLength: 1, maxLength: 190 })) }, { additionalProperties: false }),
  output: Type.Object({ execution_id: Type.Nullable(Type.String()), status: Type.String() }),
});

export const workflowEngineSubWorkflow = coreContract({
  name: 'workflow_engine.sub_workflow',
  description: 'Sub-workflow node: starts a run of another active workflow of the tenant; the node waits for it and its result becomes the output.',
  permission: 'workflows.execute',
  input: Type.Object({ workflow_id: WorkflowId, data: Type.Optional(JsonObject()) }, { additionalProperties: false }),
  output: Run,
});

export const workflowEngineListWorkflows = coreContract({
  name: 'workflow_engine.list_workflows',
  description: "The tenant's workflows for the workflows list screen (search, status, trigger_type, page, per_page).",
  permission: 'workflows.view',
  input: Type.Object(
    {
      search: Type.Optional(Type.String({ maxLength: 200 })),
      status: Type.Optional(Type.Unsafe<(typeof WORKFLOW_STATUSES)[number]>({ enum: [...WORKFLOW_STATUSES] })),
      trigger_type: Type.Optional(Type.Unsafe<(typeof TRIGGER_TYPES)[number]>({ enum: [...TRIGGER_TYPES] })),
      ...paging,
    },
    { additionalProperties: false },
  ),
  output: ListOutput,
});

export const workflowEngineGetWorkflow = coreContract({
  name: 'workflow_engine.get_workflow',
  description: 'One workflow with its nodes and connections, for the workflow detail screen.',
  permission: 'workflows.view',
  input: Type.Object({ id: Type.String() }, { additionalProperties: false }),
  output: Type.Object({ id: Type.String(), name: Type.String() }),
});

export const workflowEngineListExecutions = coreContract({
  name: 'workflow_engine.list_executions',
  description: "A workflow's executions (or all), newest first, for the workflow detail screen.",
  permission: 'workflows.view',
  input: Type.Object({ workflow_id: Type.Optional(Uuid()), status: Type.Optional(Type.String({ maxLength: 20 })), ...paging }, { additionalProperties: false }),
  output: ListOutput,
});

export const workflowEngineFireSchedules = coreContract({
  name: 'workflow_engine.fire_schedules',
  description:
    "Starts the tenant's active schedule-triggered workflows due in the minute starting at scheduled_at, the current slot of the schedule making the call (the workflows module's).",
  input: Type.Object({ scheduled_at: Type.String({ format: 'date-time' }) }, { additionalProperties: true }),
  output: Type.Object({ started: Type.Integer() }),
});
