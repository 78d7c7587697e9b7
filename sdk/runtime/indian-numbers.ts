/**
 * For modules that print Indian documents (the orders module's GST invoices, the reseller network's
 * level invoices). Amounts as Indian invoices print them: digits grouped in lakhs and crores
 * (1,23,45,678.90), in words with the Indian scale ("Rupees One Lakh Twenty Thousand and Fifty Paise Only"), and dates
 * as DD-MM-YYYY in India time. Amounts stay decimal strings (never floats): the whole part is read
 * as a BigInt and the paise as two digits.
 */
const ONES = ['', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve', 'Thirteen', 'Fourteen', 'Fifteen', 'Sixteen', 'Seventeen', 'Eighteen', 'Nineteen'];
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety'];

/** "123.4" → { whole: 123n, paise: 40 }; refuses anything but a plain non-negative decimal. */
function parts(amount: string): { whole: bigint; paise: number } {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount.trim());
  if (!m) throw new Error(`not a decimal amount: ${amount}`);
  return { whole: BigInt(m[1]!), paise: Number((m[2] ?? '0').padEnd(2, '0')) };
}

function belowHundred(n: number): string {
  if (n < 20) return ONES[n]!;
  return [TENS[Math.floor(n / 10)], ONES[n % 10]].filter(Boolean).join(' ');
}

function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100);
  return [hundreds ? `${ONES[hundreds]} Hundred` : '', belowHundred(n % 100)].filter(Boolean).join(' ');
}

/** A whole number in words on the Indian scale; past 99 crore the crores are themselves counted in words. */
export function wholeInWords(n: bigint): string {
  if (n === 0n) return 'Zero';
  const crore = n / 10_000_000n;
  const rest = Number(n % 10_000_000n);
  const lakh = Math.floor(rest / 100_000);
  const thousand = Math.floor((rest % 100_000) / 1000);
  return [
    crore ? `${wholeInWords(crore)} Crore` : '',
    lakh ? `${belowHundred(lakh)} Lakh` : '',
    thousand ? `${belowHundred(thousand)} Thousand` : '',
    belowThousand(rest % 1000),
  ].filter(Boolean).join(' ');
}

/**
 * "1180.50", "INR" → "Rupees One Thousand One Hundred Eighty and Fifty Paise Only". Another
 * currency keeps its code and counts hundredths: "USD Twelve and 50/100 Only".
 */
export function amountInWords(amount: string, currency = 'INR'): string {
  const { whole, paise } = parts(amount);
  if (currency !== 'INR') return `${currency} ${wholeInWords(whole)}${paise ? ` and ${String(paise).padStart(2, '0')}/100` : ''} Only`;
  return `Rupees ${wholeInWords(whole)}${paise ? ` and ${belowHundred(paise)} Paise` : ''} Only`;
}

/** "12345678.9" → "1,23,45,678.90": the last three digits, then pairs. */
export function groupIndian(amount: string): string {
  const { whole, paise } = parts(amount);
  const digits = whole.toString();
  const head = digits.slice(0, -3);
  const grouped = head ? `${head.replace(/\B(?=(\d{2})+$)/g, ',')},${digits.slice(-3)}` : digits;
  return `${grouped}.${String(paise).padStart(2, '0')}`;
}

const INDIA = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Kolkata', day: '2-digit', month: '2-digit', year: 'numeric' });

/** An ISO 8601 instant as DD-MM-YYYY on India's calendar (an invoice's date of issue is India's day). */
export function indianDate(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return INDIA.format(at).replace(/\//g, '-');
}
