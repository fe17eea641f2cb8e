import type { OutcomeLookup, ToolDefinition } from './types';
import { addCampaignRecipientsTool } from './tools/add_campaign_recipients';
import { addGroupParticipantsTool } from './tools/add_group_participants';
import { addNumberFilterTool } from './tools/add_number_filter';
import { analyzeCampaignCsvTool } from './tools/analyze_campaign_csv';
import { cancelCampaignTool } from './tools/cancel_campaign';
import { checkRecipientSendOptionsTool } from './tools/check_recipient_send_options';
import { createBusinessTemplateTool } from './tools/create_business_template';
import { createCampaignTool } from './tools/create_campaign';
import { createGroupTool } from './tools/create_group';
import { createMessengerFormTool } from './tools/create_messenger_form';
import { deleteChatTool } from './tools/delete_chat';
import { deleteMessageTool } from './tools/delete_message';
import { demoteGroupAdminsTool } from './tools/demote_group_admins';
import { editMessageTool } from './tools/edit_message';
import { estimateBusinessPriceTool } from './tools/estimate_business_price';
import { forwardMessageTool } from './tools/forward_message';
import { getAccountContextTool } from './tools/get_account_context';
import { getAttachmentLinkTool } from './tools/get_attachment_link';
import { getBusinessAccountTool } from './tools/get_business_account';
import { getBusinessBillingContextTool } from './tools/get_business_billing_context';
import { getBusinessHealthTool } from './tools/get_business_health';
import { getBusinessMessagingAnalyticsTool } from './tools/get_business_messaging_analytics';
import { getOperationTool } from './tools/get_operation';
import { getSendStatusTool } from './tools/get_send_status';
import { sendMessageTool } from './tools/send_message';
import { getBusinessPricingAnalyticsTool } from './tools/get_business_pricing_analytics';
import { getBusinessTemplateTool } from './tools/get_business_template';
import { getMessagesTool } from './tools/get_messages';
import { listConversationsTool } from './tools/list_conversations';
import { searchAttachmentsTool } from './tools/search_attachments';
import { searchMessagesTool } from './tools/search_messages';

/** Every tool of the node: those the spec shapes, then those whose shape the README assumes. */
export const catalogue: readonly ToolDefinition[] = [
	addCampaignRecipientsTool,
	addGroupParticipantsTool,
	addNumberFilterTool,
	analyzeCampaignCsvTool,
	cancelCampaignTool,
	checkRecipientSendOptionsTool,
	createBusinessTemplateTool,
	createCampaignTool,
	createGroupTool,
	createMessengerFormTool,
	deleteChatTool,
	deleteMessageTool,
	demoteGroupAdminsTool,
	editMessageTool,
	estimateBusinessPriceTool,
	forwardMessageTool,
	getAccountContextTool,
	getAttachmentLinkTool,
	getBusinessAccountTool,
	getBusinessBillingContextTool,
	getBusinessHealthTool,
	getBusinessMessagingAnalyticsTool,
	getOperationTool,
	getSendStatusTool,
	sendMessageTool,
	getBusinessPricingAnalyticsTool,
	getBusinessTemplateTool,
	getMessagesTool,
	listConversationsTool,
	searchAttachmentsTool,
	searchMessagesTool,
];

const byName = new Map(catalogue.map((tool) => [tool.name, tool]));

/**
 * The entry for `name`, or undefined for tools only the live service describes
 * (their input schema then comes from GET /api/v1/tools).
 */
export function findTool(name: string): ToolDefinition | undefined {
	return byName.get(name);
}

/** The node's operation `operation` of `resource`, if a catalogue tool serves it. */
export function findOperation(resource: string, operation: string): ToolDefinition | undefined {
	return catalogue.find((tool) => tool.resource === resource && tool.operation.value === operation);
}

/** The read tool that answers the outcome look-up `lookup` (get_operation, get_send_status). */
export function lookupTool(lookup: OutcomeLookup): ToolDefinition | undefined {
	return catalogue.find((tool) => tool.answersLookup === lookup);
}
