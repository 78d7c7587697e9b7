import { defineModule } from '../../../sdk';

interface HelloInput {
  who: string;
}

export default defineModule({
  operations: {
    // loyalty.hello: the bus has already checked the input against module.json.
    async hello(input: HelloInput, ctx) {
      ctx.host.log.info('greeting', { who: input.who, tenant: ctx.tenantId });
      return { message: `Hello, ${input.who}!`, at: new Date(ctx.host.now()).toISOString() };
    },
  },
});
