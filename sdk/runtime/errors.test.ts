import { buildErrors, defineErrors, moduleErrorCatalogs, ModuleError } from './errors';

describe('defineErrors, the SDK catalog builder (docs/guides/03-the-code.md, Errors)', () => {
  const shopErrors = defineErrors('acme-shop', {
    notFound: { code: 'NOT_FOUND', status: 404, message: (what: string, id: string) => `${what} ${id} was not found.`, details: (_what, id) => ({ id }) },
    outOfStock: {
      code: 'OUT_OF_STOCK', status: 409,
      doc: 'Not enough stock of the SKU.',
      message: (sku: string, _left: number) => `${sku} is out of stock.`,
      details: (_sku, left) => ({ left }),
      statusFor: (_sku, left) => (left < 0 ? 500 : 409),
    },
    busy: { code: 'SHOP_BUSY', status: 409, doc: 'Retry.', message: (message: string = 'Busy; retry.') => message },
  });

  it('makes an Error carrying the code, the message and the details with the HTTP status', () => {
    const err = shopErrors.notFound('Product', 'p-1');
    expect(err).toBeInstanceOf(Error);
    expect(err).toBeInstanceOf(ModuleError);
    expect({ code: err.code, message: err.message, details: err.details, name: err.name }).toEqual({
      code: 'NOT_FOUND', message: 'Product p-1 was not found.', details: { id: 'p-1', status: 404 }, name: 'ModuleError',
    });
  });

  it('takes the status from statusFor when the case decides it, and details.status is always the status', () => {
    expect(shopErrors.outOfStock('SKU-1', 0).details).toEqual({ left: 0, status: 409 });
    expect(shopErrors.outOfStock('SKU-1', -1).details).toEqual({ left: -1, status: 500 });
    expect(shopErrors.busy().details).toEqual({ status: 409 });
    expect(shopErrors.busy('Later.').message).toBe('Later.');
  });

  it("types each factory's arguments from its message", () => {
    // @ts-expect-error the message takes (what, id)
    shopErrors.notFound('Product');
    // @ts-expect-error left is a number
    shopErrors.outOfStock('SKU-1', '3');
    // @ts-expect-error no such entry
    void shopErrors.missing;
    expect(shopErrors.outOfStock('SKU-1', 3).code).toBe('OUT_OF_STOCK');
  });

  it('lists the catalog with its area, names, codes, statuses and docs for the reference', () => {
    expect(moduleErrorCatalogs().find((c) => c.area === 'acme-shop')).toEqual({
      area: 'acme-shop',
      entries: [
        { name: 'notFound', code: 'NOT_FOUND', status: 404, doc: undefined },
        { name: 'outOfStock', code: 'OUT_OF_STOCK', status: 409, doc: 'Not enough stock of the SKU.' },
        { name: 'busy', code: 'SHOP_BUSY', status: 409, doc: 'Retry.' },
      ],
    });
  });

  it('builds with another maker (as core does for MandiError) without listing the catalog', () => {
    const before = moduleErrorCatalogs().length;
    const { factories, catalog } = buildErrors('host', { gone: { code: 'GONE', status: 410, doc: 'Gone.', message: (id: string) => `${id} is gone.` } }, (code, message, status) => ({ code, message, status }));
    expect(factories.gone('x')).toEqual({ code: 'GONE', message: 'x is gone.', status: 410 });
    expect(catalog).toEqual({ area: 'host', entries: [{ name: 'gone', code: 'GONE', status: 410, doc: 'Gone.' }] });
    expect(moduleErrorCatalogs()).toHaveLength(before);
  });
});
