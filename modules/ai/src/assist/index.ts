/**
 * The assist area (README, Assist; spec 2 "Which provider is needed": order extraction,
 * auto-responses, product descriptions): features that read another module's records as the user
 * (tools.call) and ask the language model for a JSON answer checked against a schema. What they
 * change in other modules they change through those modules' operations, as the user.
 */
import type { Area } from '../area';
import { autoResponseOperations, onConversationStarted } from './auto-response';
import { descriptionOperations } from './description-operations';
import { extractionModels, extractionOperations } from './extraction-operations';
import { replyOperations } from './reply-operations';

export const assistArea: Area = {
  operations: { ...extractionOperations, ...replyOperations, ...autoResponseOperations, ...descriptionOperations },
  models: extractionModels,
  consumes: ['tools.call', 'reseller_catalog.list_my_catalog', 'reseller_catalog.get_my_catalog_product', 'reseller_catalog.update_master_product', 'orders.create', 'live_chat.get_messages', 'live_chat.auto_answer', 'live_chat.business_hours_status'],
  subscribes: { 'live_chat.conversation_started': onConversationStarted },
};
