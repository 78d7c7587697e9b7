/** GSTIN checks and GST state codes (Rule 46 of the CGST Rules: GSTINs, place of supply with state name and code). */
import { gstinProblem, gstState, parseGstin } from '../src/gstin';

describe('spec 3 Invoice (GST): GSTINs and state codes', () => {
  it('accepts a GSTIN whose check character is right and says what is wrong with others', () => {
    expect(gstinProblem('27AAPFU0939F1ZV')).toBeNull();
    expect(gstinProblem('27AAPFU0939F1ZW')).toBe('has a wrong check character (a typing mistake?)');
    expect(gstinProblem('27AAPFU0939F1Z')).toBe('must be 15 characters');
    expect(gstinProblem('27AAPF10939F1ZV')).toMatch(/PAN/);
    expect(gstinProblem('99AAPFU0939F1ZV')).toBe('starts with 99, which is not a GST state code');
    expect(parseGstin(' 27aapfu0939f1zv ', 'gstin')).toBe('27AAPFU0939F1ZV');
    expect(parseGstin('', 'gstin')).toBeNull();
    expect(() => parseGstin('27AAPFU0939F1ZW', 'billing_gstin')).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', details: expect.objectContaining({ status: 422, errors: { billing_gstin: [expect.any(String)] } }) }));
  });

  it.each([
    ['Maharashtra', '27'], ['MH', '27'], ['mh', '27'], ['27', '27'], ['7', '07'], ['New Delhi', '07'], ['Orissa', '21'], ['Tamil Nadu', '33'],
    ['Andaman & Nicobar Islands', '35'], ['Dadra and Nagar Haveli', '26'], ['TS', '36'], ['Jammu & Kashmir', '01'],
  ])('reads the state %s as code %s', (given, code) => {
    expect(gstState(given)?.code).toBe(code);
  });

  it('knows no state it cannot name', () => {
    expect([gstState('XX'), gstState('40'), gstState(''), gstState(undefined)]).toEqual([null, null, null, null]);
  });
});
