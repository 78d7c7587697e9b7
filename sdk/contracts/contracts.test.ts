/** The contracts as module authors use them: typed calls by contract operation, and plain JSON Schema for the host. */
import { typedCall } from '../runtime/typed-call';
import { CONTRACT_NAMES, contractOperation, payment, shipping, type ContractOperations } from '.';

describe('DESIGN Host capabilities: provider contracts in the SDK', () => {
  test('typedCall types a call by its contract operation name', async () => {
    const seen: Array<[string, unknown]> = [];
    const host = { call: async <O>(op: string, input?: unknown) => (seen.push([op, input]), { id: 'l1', url: 'https://pay.example/l1' } as O) };
    const pay = typedCall<ContractOperations<typeof payment>>(host);
    const link = await pay('payment.createLink', { amount: '10.00', currency: 'INR', reference: 'R-1' });
    expect(link.url).toBe('https://pay.example/l1');
    // @ts-expect-error amount is a decimal string in payment@1, never a number
    await pay('payment.createLink', { amount: 10, currency: 'INR', reference: 'R-1' });
    // @ts-expect-error payment@1 has no such operation
    await pay('payment.teleport', {});
    expect(seen.map(([op]) => op)).toEqual(['payment.createLink', 'payment.createLink', 'payment.teleport']);
  });

  test('names, ids and routed operation names', () => {
    expect([payment.id, shipping.id]).toEqual(['payment@1', 'shipping@1']);
    expect([...CONTRACT_NAMES]).toEqual(['payment', 'shipping']);
    expect(contractOperation('shipping.createShipment')).toMatchObject({ contract: shipping, method: 'createShipment' });
    expect(contractOperation('payment.toString')).toBeUndefined();
    expect(contractOperation('orders.get')).toBeUndefined();
    // What the build writes into module.json and the host compiles: TypeBox's markers are not JSON.
    expect(JSON.parse(JSON.stringify(payment.operations.createLink.input)).required).toEqual(['amount', 'currency', 'reference']);
  });
});
