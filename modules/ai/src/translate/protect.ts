/**
 * What translation must never change (spec 2: order numbers, URLs, brand names, formatting): the
 * prompt asks the model to keep them, and the tokens a machine can recognise — URLs, e-mail
 * addresses, order-style codes such as ORD-000123, {{placeholders}} — are also swapped for markers
 * ⟦1⟧, ⟦2⟧ … before the text goes out and put back after, so no model can alter them. A marker the
 * model dropped makes the answer unusable (502), rather than silently losing an order number.
 */
const PROTECTED = /https?:\/\/[^\s<>"')\]]+|www\.[^\s<>"')\]]+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\{\{[^}]{1,100}\}\}|\b[A-Z]{2,10}-\d{2,}(?:-\d+)*\b/g;

export interface Masked {
  text: string;
  tokens: string[];
}

export function mask(text: string): Masked {
  const tokens: string[] = [];
  const masked = text.replace(PROTECTED, (token) => {
    tokens.push(token);
    return `⟦${tokens.length}⟧`;
  });
  return { text: masked, tokens };
}

/** Puts the tokens back; null when a marker is missing from the model's text. */
export function unmask(text: string, tokens: string[]): string | null {
  let out = text;
  for (let i = tokens.length; i >= 1; i--) {
    const marker = `⟦${i}⟧`;
    if (!out.includes(marker)) return null;
    out = out.split(marker).join(tokens[i - 1]!);
  }
  return out;
}
