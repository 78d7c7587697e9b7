/** The webhooks part (core/kernel/parts): modules reach outbound webhooks as webhooks.deliver and webhooks.check_url. */
import { centralRef } from '../../kernel/data/parts';
import { kernelRef } from '../../kernel/modules/part';
import { definePart, partRef } from '../../kernel/parts';
import { registerWebhookOperations } from './deliver';

export const webhooksRef = partRef<void>('webhooks');

export const webhooksPart = definePart({ ref: webhooksRef, deps: { central: centralRef, kernel: kernelRef }, init: ({ central, kernel }) => registerWebhookOperations(kernel.bus, central) });
