/** Small helpers for reading request bodies into typed values with spec-shaped 422 errors. */
import { ValidationError, type FieldErrors } from '../errors';

export class BodyReader {
  readonly errors: FieldErrors = {};
  constructor(private readonly body: unknown) {}

  private get obj(): Record<string, unknown> {
    return this.body && typeof this.body === 'object' && !Array.isArray(this.body) ? (this.body as Record<string, unknown>) : {};
  }

  fail(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }

  string(field: string, opts: { required?: boolean; max?: number; min?: number; label?: string } = {}): string | undefined {
    const v = this.obj[field];
    const label = opts.label ?? field.replace(/_/g, ' ');
    if (v === undefined || v === null || v === '') {
      if (opts.required) this.fail(field, `The ${label} field is required.`);
      return undefined;
    }
    if (typeof v !== 'string') return void this.fail(field, `The ${label} must be a string.`);
    if (opts.max !== undefined && v.length > opts.max) this.fail(field, `The ${label} may not be greater than ${opts.max} characters.`);
    if (opts.min !== undefined && v.length < opts.min) this.fail(field, `The ${label} must be at least ${opts.min} characters.`);
    return v;
  }

  email(field: string, required = true): string | undefined {
    const v = this.string(field, { required, max: 255 });
    if (v !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) this.fail(field, `The ${field} must be a valid email address.`);
    return v?.trim().toLowerCase();
  }

  /** Throws the 422 shape when any field failed. */
  done(): void {
    if (Object.keys(this.errors).length) throw new ValidationError(this.errors);
  }
}
