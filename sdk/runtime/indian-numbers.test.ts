/** Amounts in words on the Indian scale, lakh-and-crore grouping and India's calendar dates (GST tax invoices). */
import { amountInWords, groupIndian, indianDate } from './indian-numbers';

describe('GST tax invoice: amounts and dates as Indian invoices print them', () => {
  it.each([
    ['0', 'Rupees Zero Only'],
    ['0.05', 'Rupees Zero and Five Paise Only'],
    ['1180.50', 'Rupees One Thousand One Hundred Eighty and Fifty Paise Only'],
    ['100000', 'Rupees One Lakh Only'],
    ['120478.00', 'Rupees One Lakh Twenty Thousand Four Hundred Seventy Eight Only'],
    ['10000000', 'Rupees One Crore Only'],
    ['123456789.99', 'Rupees Twelve Crore Thirty Four Lakh Fifty Six Thousand Seven Hundred Eighty Nine and Ninety Nine Paise Only'],
    ['1000000000000', 'Rupees One Lakh Crore Only'],
    ['90000000000000.01', 'Rupees Ninety Lakh Crore and One Paise Only'],
  ])('%s in words', (amount, words) => {
    expect(amountInWords(amount)).toBe(words);
  });

  it('another currency keeps its code and counts hundredths', () => {
    expect(amountInWords('12.5', 'USD')).toBe('USD Twelve and 50/100 Only');
  });

  it('groups digits in thousands, then lakhs and crores', () => {
    expect(['0', '999.5', '1000', '100000', '12345678.9', '1000000000000'].map(groupIndian)).toEqual(['0.00', '999.50', '1,000.00', '1,00,000.00', '1,23,45,678.90', '10,00,00,00,00,000.00']);
  });

  it('prints dates as DD-MM-YYYY on India\'s calendar (UTC+05:30)', () => {
    expect(indianDate('2031-03-31T18:29:59Z')).toBe('31-03-2031');
    expect(indianDate('2031-03-31T18:30:00Z')).toBe('01-04-2031');
  });

  it('refuses what is not a plain amount rather than printing it wrong', () => {
    expect(() => amountInWords('-5')).toThrow();
    expect(() => amountInWords('1.234')).toThrow();
  });
});
