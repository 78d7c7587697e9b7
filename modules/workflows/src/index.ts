/**
 * workflows: the built-in workflow nodes (spec 2). The engine that stores and runs workflows is a
 * host service (core/services/workflows); a tenant gets its routes once it has installed this module. Declared
 * here beside the handlers; `mandi module build` writes module.json from it.
 */
import { defineModule } from '../../../sdk';
import { workflowNodes } from './nodes';
import { operations } from './operations';

export default defineModule({
  name: 'workflows',
  version: '1.0.0',
  description: 'Built-in workflow nodes: manual, schedule, webhook, event and error triggers; condition, switch, merge, delay, transform, set-variable, HTTP request, send email, send notification, code and sub-workflow (spec 2).',
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  operations,
  dependencies: { workflows_code: '^1.0.0' },
  consumes: ['mail.send', 'notifications.send', 'workflow_engine.fire_schedules', 'workflow_engine.list_workflows', 'workflow_engine.get_workflow', 'workflow_engine.list_executions', 'workflow_engine.sub_workflow', 'workflows_code.evaluate'],
  schedules: [{ name: 'workflow_schedules', operation: 'workflows.fire_schedules', every_ms: 60_000 }],
  permissions: [
    { name: 'workflows.view', description: 'See workflows, their executions and statistics.' },
    { name: 'workflows.manage', description: 'Create, change, activate, import and delete workflows.' },
    { name: 'workflows.execute', description: 'Run, test, simulate, pause, cancel and retry workflows.' },
  ],
  workflow: { nodes: workflowNodes },
  mobile: {
    screens: [
      { id: 'workflows.list', title: 'Workflows', icon: 'git-branch', layout: 'scroll', route: '/workflows', version: 1 },
      { id: 'workflows.detail', title: 'Workflow', icon: 'git-branch', layout: 'scroll', route: '/workflows/:id', version: 1 },
    ],
    screenProviders: { 'workflows.list': { file: 'screens/workflows.list.json' }, 'workflows.detail': { file: 'screens/workflows.detail.json' } },
  },
  limits: { memory_mb: 64, timeout_ms: 15_000 },
});
