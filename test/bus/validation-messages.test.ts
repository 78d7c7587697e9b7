/**
 * spec 1 Errors: validation failures are {message, errors: {<field>: [<message>]}}, and the messages
 * are what a client shows its user: sentences, not ajv's terse keywords ("must NOT have fewer than 1 items").
 */
import { SchemaValidators } from '../../core/kernel/bus/schema-validators';

const schema = {
  type: 'object',
  properties: {
    items: { type: 'array', minItems: 1, maxItems: 2 },
    per_page: { type: 'integer' },
    amount: { type: ['string', 'number'] },
    sort: { enum: ['created_at', '-created_at'] },
    code: { type: 'string', minLength: 3, maxLength: 5 },
    id: { type: 'string', format: 'uuid' },
    qty: { type: 'integer', minimum: 1 },
  },
  additionalProperties: false,
  required: ['items'],
};

describe('spec 1 Errors: validation messages read as sentences', () => {
  const v = new SchemaValidators();

  test('each common keyword has its own wording', () => {
    expect(v.validate(schema, { items: [], per_page: 'x', amount: true, sort: 'total', code: 'ab', id: 'nope', qty: 0 })).toEqual({
      items: ['The items must have at least 1 item.'],
      per_page: ['The per_page must be an integer.'],
      amount: ['The amount must be a string or a number.'],
      sort: ['The sort must be one of the allowed values: "created_at", "-created_at".'],
      code: ['The code must be at least 3 characters.'],
      id: ['The id must be a valid uuid.'],
      qty: ['The qty must be >= 1.'],
    });
    expect(v.validate(schema, { items: [1, 2, 3], code: 'abcdefg' })).toEqual({
      items: ['The items may not have more than 2 items.'],
      code: ['The code may not be greater than 5 characters.'],
    });
  });

  test('missing and unknown fields keep their own sentences', () => {
    expect(v.validate(schema, { colour: 'red' })).toEqual({ items: ['The items field is required.'], colour: ['The colour field is not allowed.'] });
  });
});
