/** Errors of workflows and their runs (spec 2, Errors: the workflow routes' own shape {success: false, message, errors}). */
import { defineErrors } from '../../kernel/errors';

const SUB_FAILED = "A sub-workflow node's run failed, was cancelled or no longer exists; the parent run fails with its message.";

export const workflowErrors = defineErrors('workflows', {
  notInstalled: {
    code: 'WORKFLOWS_NOT_INSTALLED', status: 404,
    doc: 'The tenant has not installed the workflows module, so its workflow routes do not exist for it.',
    message: () => 'Workflows are not installed in this tenant: install the "workflows" module.',
  },
  workflowNotFound: {
    code: 'WORKFLOW_NOT_FOUND', status: 404,
    doc: 'No workflow of that id in this tenant.',
    message: () => 'Workflow not found',
  },
  workflowNotFoundById: {
    code: 'WORKFLOW_NOT_FOUND', status: 404,
    doc: 'No workflow of that id in this tenant.',
    message: (_id: string) => 'Workflow not found',
    details: (id: string) => ({ workflow_id: id }),
  },
  versionNotFound: {
    code: 'WORKFLOW_VERSION_NOT_FOUND', status: 404,
    doc: 'The workflow has no version of that number (or it is no longer kept).',
    message: () => 'Workflow version not found',
  },
  notActive: {
    code: 'WORKFLOW_NOT_ACTIVE', status: 409,
    doc: 'Only an active workflow starts from a module or runs as a sub-workflow.',
    message: (id: string, status: string, what: string) => `Workflow ${id} is ${status}; only an active workflow ${what}.`,
    details: (_id: string, status: string) => ({ status }),
  },
  subWorkflowNodeOnly: {
    code: 'SUB_WORKFLOW_NODE_ONLY', status: 403,
    doc: 'The sub-workflow operation runs only as a workflow node, never from a module or an edge.',
    message: (operation: string) => `${operation} runs only as a workflow node.`,
  },
  badSignature: {
    code: 'BAD_SIGNATURE', status: 401,
    doc: "A signed webhook's X-Webhook-Signature does not match its body and the workflow's secret.",
    message: () => 'Unauthenticated',
  },
  webhookInactive: {
    code: 'WORKFLOW_INACTIVE', status: 400,
    doc: 'The webhook belongs to a workflow that is not active or not webhook-triggered.',
    message: () => 'Invalid request',
    details: () => ({ errors: { workflow: ['This workflow is not an active webhook-triggered workflow.'] } }),
  },
  executionNotFound: {
    code: 'EXECUTION_NOT_FOUND', status: 404,
    doc: 'No execution of that id in this tenant.',
    message: () => 'Execution not found',
  },
  /** Spec 2, Errors: 400 'Invalid request' (e.g. pausing a finished or already paused execution). */
  invalid: {
    code: 'BAD_REQUEST', status: 400,
    message: (_field: string, _message: string) => 'Invalid request',
    details: (field: string, message: string) => ({ errors: { [field]: [message] } }),
  },
  invalidGraph: {
    code: 'WORKFLOW_INVALID', status: 422,
    doc: 'The workflow cannot be activated as it is (no trigger, a cycle, an unknown node, ...): details.errors lists why.',
    message: (_errors: string[]) => 'Workflow validation failed',
    details: (errors: string[]) => ({ errors }),
  },
  permissionMissing: {
    code: 'WORKFLOW_PERMISSION_MISSING', status: 403,
    doc: 'Activating, running or saving a workflow needs every permission its nodes need; details.missing names the nodes and permissions.',
    message: (action: string, list: string, _missing: { node: string; permission: string }[]) =>
      `To ${action} this workflow you must hold every permission its nodes need, and you lack some: ${list}.`,
    details: (_action: string, _list: string, missing: { node: string; permission: string }[]) => ({ missing }),
  },
  nothingLeft: {
    code: 'RETRY_NOTHING_LEFT', status: 409,
    doc: 'A retry from the failed node asked of an execution that has no node left to run: retry it from its trigger.',
    message: () => 'This execution has no node left to run: retry it from its trigger.',
  },
  nodeRemoved: {
    code: 'RETRY_NODE_REMOVED', status: 409,
    doc: 'The node the execution failed at is not in the version the retry would run: retry on version "same" or from the trigger.',
    message: (nodeId: string, version: number) =>
      `The node this execution failed at (${nodeId}) is not in version ${version} of the workflow: retry it on version "same" or from its trigger.`,
    details: (nodeId: string) => ({ node_id: nodeId }),
  },
  versionNotKept: {
    code: 'WORKFLOW_VERSION_NOT_KEPT', status: 409,
    doc: 'The version the execution ran is no longer kept (version retention): retry it on version "current".',
    message: (version: number | null) => `Version ${version} of the workflow, which this execution ran, is no longer kept: retry it on version "current".`,
  },
  nodeUnavailable: {
    code: 'NODE_UNAVAILABLE', status: 422,
    doc: "A node's type is no longer installed in the tenant (its module was uninstalled).",
    message: (nodeType: string) => `The node type "${nodeType}" is no longer installed in this tenant.`,
  },
  nodeNotRunnable: {
    code: 'NODE_NOT_RUNNABLE', status: 422,
    doc: "A node's type names no operation to run.",
    message: (nodeType: string) => `The node type "${nodeType}" names no operation.`,
  },
  nodeTimeout: {
    code: 'NODE_TIMEOUT', status: 504,
    doc: "A node ran longer than its timeout_seconds; its retries (if any) follow.",
    message: (seconds: number) => `timed out after ${seconds} s`,
  },
  subWorkflowGone: {
    code: 'SUB_WORKFLOW_FAILED', status: 422, doc: SUB_FAILED,
    message: (executionId: string) => `The sub-workflow's execution ${executionId} no longer exists.`,
    details: (executionId: string) => ({ execution_id: executionId }),
  },
  subWorkflowFailed: {
    code: 'SUB_WORKFLOW_FAILED', status: 422, doc: SUB_FAILED,
    message: (executionId: string, status: string, reason: string) => `The sub-workflow's execution ${executionId} ${status}: ${reason}`,
    details: (executionId: string) => ({ execution_id: executionId }),
  },
  waitLimit: {
    code: 'WEBHOOK_WAIT_LIMIT', status: 429,
    doc: 'Too many webhook calls of the tenant wait for their run on this node (WORKFLOW_WEBHOOK_WAITS_PER_TENANT); retry shortly.',
    message: (held: number, _limit: number) => `This tenant already has ${held} webhook calls waiting for their run on this node (WORKFLOW_WEBHOOK_WAITS_PER_TENANT); retry shortly.`,
    details: (_held: number, limit: number) => ({ limit }),
  },
  chainLoop: {
    code: 'WORKFLOW_CHAIN_LOOP', status: 409,
    doc: 'The run would start its own workflow again: the workflow is already in the chain of runs that led here (README, Run chains); the run fails before its first node, its error_message starting with the code.',
    message: (workflowId: string, chain: readonly string[]) => `WORKFLOW_CHAIN_LOOP: workflow ${workflowId} would start itself: it is already in the chain of runs that led here (${[...chain, workflowId].join(' → ')}).`,
    details: (_workflowId: string, chain: readonly string[]) => ({ chain: [...chain] }),
  },
  chainTooDeep: {
    code: 'WORKFLOW_CHAIN_TOO_DEEP', status: 409,
    doc: 'The run would be deeper in one chain of workflow runs than WORKFLOW_MAX_CHAIN_DEPTH allows; it fails before its first node, its error_message starting with the code.',
    message: (workflowId: string, chain: readonly string[], maxDepth: number) =>
      `WORKFLOW_CHAIN_TOO_DEEP: this run would be run ${chain.length + 1} of one chain of workflow runs (${[...chain, workflowId].join(' → ')}); at most ${maxDepth} (WORKFLOW_MAX_CHAIN_DEPTH).`,
    details: (_workflowId: string, chain: readonly string[], _maxDepth: number) => ({ chain: [...chain] }),
  },
  ownerInactive: {
    code: 'WORKFLOW_OWNER_INACTIVE', status: 409,
    doc: "The workflow's owner is no longer an active member of the tenant: the run fails and the workflow is paused until someone holding its nodes' permissions saves and activates it.",
    message: (ownerId: string | number) =>
      `WORKFLOW_OWNER_INACTIVE: the workflow's owner (user ${ownerId}) is no longer an active member of this tenant, so it was paused; someone who holds the permissions its nodes need can save it (becoming its owner) and activate it again.`,
  },
});
