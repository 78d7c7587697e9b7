/**
 * Vendors accept tool names matching ^[a-zA-Z0-9_-]{1,64}$; bus operations are named
 * `module.method`. Each tool gets a vendor-safe name (`orders.getStats` → `orders_getStats`, made
 * unique with a suffix when two collide) and calls are mapped back to the tool's own name.
 */
export class ToolNames {
  private readonly toVendor = new Map<string, string>();
  private readonly fromVendor = new Map<string, string>();

  constructor(names: readonly string[]) {
    for (const name of names) {
      const base = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 60) || 'tool';
      let safe = base;
      for (let n = 2; this.fromVendor.has(safe); n++) safe = `${base}_${n}`;
      this.toVendor.set(name, safe);
      this.fromVendor.set(safe, name);
    }
  }

  vendor(name: string): string {
    return this.toVendor.get(name) ?? name;
  }

  /** The tool's own name; a name the model made up stays as it is (the caller refuses it). */
  own(vendorName: string): string {
    return this.fromVendor.get(vendorName) ?? vendorName;
  }
}
