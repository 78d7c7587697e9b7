/** Errors of the catalogs assembled from manifests: screens, their data and actions, workflow nodes, agent tools. */
import { defineErrors } from '../../kernel/errors';

const SCREEN_MISSING = 'No screen of that id in the tenant\'s screen catalog (its module is not installed there).';

export const catalogErrors = defineErrors('catalogs', {
  screenNotFound: {
    code: 'SCREEN_NOT_FOUND', status: 404, doc: SCREEN_MISSING,
    message: (id: string) => `Screen "${id}" does not exist for this tenant.`,
    details: (id: string) => ({ screen: id }),
  },
  noDefinitionProvider: {
    code: 'SCREEN_DEFINITION_NOT_FOUND', status: 404,
    doc: 'The screen names no definition provider (a file or an operation) to build it from.',
    message: (id: string) => `Screen "${id}" has no definition provider.`,
    details: (id: string) => ({ screen: id }),
  },
  invalidDefinition: {
    code: 'SCREEN_DEFINITION_INVALID', status: 502,
    doc: "A module supplied a screen definition that is not valid (details.problems): a bug in the module.",
    message: (screenId: string, _problems: string[]) => `The module supplied an invalid definition for screen "${screenId}".`,
    details: (screenId: string, problems: string[]) => ({ screen: screenId, problems }),
  },
  sectionNotFound: {
    code: 'SECTION_NOT_FOUND', status: 404,
    doc: 'The screen has no section of that id.',
    message: (screen: string, section: string) => `Screen "${screen}" has no section "${section}".`,
    details: (screen: string, section: string) => ({ screen, section }),
  },
  sectionHasNoData: {
    code: 'SECTION_HAS_NO_DATA', status: 404,
    doc: 'The section has no data source to read.',
    message: (screen: string, section: string) => `Section "${section}" of screen "${screen}" has no data source.`,
    details: (screen: string, section: string) => ({ screen, section }),
  },
  actionNotFound: {
    code: 'ACTION_NOT_FOUND', status: 404,
    doc: 'The screen has no server-side action of that id.',
    message: (screen: string, action: string) => `Screen "${screen}" has no server-side action "${action}".`,
    details: (screen: string, action: string) => ({ screen, action }),
  },
  nodeNotFound: {
    code: 'NODE_NOT_FOUND', status: 404,
    doc: "No node of that identifier in the tenant's node registry.",
    message: (_identifier: string) => 'Node not found',
    details: (identifier: string) => ({ identifier }),
  },
  /** Spec 2, Errors: the workflow routes' 400 'Invalid request'. */
  bodyNotObject: {
    code: 'BAD_REQUEST', status: 400,
    message: () => 'Invalid request',
    details: () => ({ errors: { body: ['The body must be a JSON object.'] } }),
  },
  grantRefused: {
    code: 'GRANT_INVALID', status: 403,
    doc: "An agent tool call's acting grant is malformed, not signed by this platform, or expired: ask the user again.",
    message: (why: string) => `The acting grant is refused: ${why}.`,
  },
});
