/**
 * Spec 3 Bulk operations (import status): when a CSV job fails, the module keeps one line as its
 * reason (orders: the import's failure_reason). A chunk call the bus refused must say which fields,
 * not only "The given data was invalid.".
 */
import { failureText } from '../../core/services/bulk/csv-jobs';
import { MandiError, ValidationError } from '../../core/kernel/errors';

describe('spec 3 Bulk operations: a failed CSV job says why', () => {
  test('a validation error names each field and its messages', () => {
    const err = new ValidationError({ 'rows.0': ['The rows.0 must be object.'], context: ['The context is required.', 'Another.'] });
    expect(failureText(err)).toBe('The given data was invalid. rows.0: The rows.0 must be object.; context: The context is required. Another.');
  });

  test('other errors keep their message', () => {
    expect(failureText(new Error('The job ran longer than its timeout of 600 s and was stopped after 500 rows.'))).toBe('The job ran longer than its timeout of 600 s and was stopped after 500 rows.');
    expect(failureText(new MandiError('OPERATION_NOT_FOUND', 'No operation orders.import_chunk.', 404, { operation: 'orders.import_chunk' }))).toBe('No operation orders.import_chunk.');
    expect(failureText('boom')).toBe('boom');
  });
});
