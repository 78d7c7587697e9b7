/**
 * spec 1 Errors: core route bodies are declared as JSON Schema and checked by ajv, answering the 422
 * shape {message, errors: {field: [messages]}} in the sentences the hand-written checks used.
 */
import * as Type from '../../sdk/runtime/schema';
import { ValidationError } from '../../core/kernel/errors';
import { BodyReader, Email } from '../../core/kernel/http/validate-body';

const SCHEMA = Type.Object({
  email: Email(),
  password_confirmation: Type.String({ maxLength: 5, minLength: 2 }),
  status: Type.Optional(Type.StringEnum(['active', 'suspended'], { errorMessage: { enum: 'The status must be one of: active, suspended.' } })),
  permissions: Type.Optional(Type.Array(Type.String({ pattern: '^[a-z.]+$' }), { errorMessage: 'The permissions must be a list of names.' })),
  password: Type.Optional(Type.Unsafe<never>({ not: {}, errorMessage: 'No password here.' })),
});

const errorsOf = (body: unknown) => {
  try {
    new BodyReader(body, SCHEMA).done();
  } catch (err) {
    if (err instanceof ValidationError) return err.errors;
    throw err;
  }
  return undefined;
};

describe('spec 1 Errors: request bodies by schema', () => {
  test('a missing, null or empty field is required, worded with spaces for underscores', () => {
    for (const body of [{}, { email: null, password_confirmation: '' }, 'not an object', [1]]) {
      expect(errorsOf(body)).toEqual({ email: ['The email field is required.'], password_confirmation: ['The password confirmation field is required.'] });
    }
  });

  test('a wrong type is told only that; lengths and the email form read as sentences', () => {
    expect(errorsOf({ email: 5, password_confirmation: 7, status: 3 })).toEqual({
      email: ['The email must be a string.'],
      password_confirmation: ['The password confirmation must be a string.'],
      status: ['The status must be a string.'],
    });
    expect(errorsOf({ email: `${'a'.repeat(251)}@b.co`, password_confirmation: 'toolong' })).toEqual({
      email: ['The email may not be greater than 255 characters.'],
      password_confirmation: ['The password confirmation may not be greater than 5 characters.'],
    });
    expect(errorsOf({ email: 'nope', password_confirmation: 'x' })).toEqual({
      email: ['The email must be a valid email address.'],
      password_confirmation: ['The password confirmation must be at least 2 characters.'],
    });
  });

  test('a property names its own message, once, for every failure below it', () => {
    expect(errorsOf({ email: 'a@b.co', password_confirmation: 'abc', status: 'gone', permissions: ['OK', 5, 'fine'], password: null })).toEqual({
      status: ['The status must be one of: active, suspended.'],
      permissions: ['The permissions must be a list of names.'],
      password: ['No password here.'],
    });
  });

  test('the value is typed by the schema: a mistyped field reads as absent, an email trimmed and lowercased', () => {
    const reader = new BodyReader({ email: '  Ann@Example.COM ', password_confirmation: 12, extra: true }, SCHEMA);
    expect(reader.value).toEqual({ email: 'ann@example.com', extra: true });
    reader.fail('password_confirmation', 'Custom.');
    expect(() => reader.done()).toThrow(ValidationError);
    expect(reader.errors.password_confirmation).toEqual(['The password confirmation must be a string.', 'Custom.']);
    expect(new BodyReader({ email: 'A@b.co', password_confirmation: 'ab' }, SCHEMA).done()).toEqual({ email: 'a@b.co', password_confirmation: 'ab' });
  });
});
