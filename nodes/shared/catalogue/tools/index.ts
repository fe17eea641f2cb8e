import type { ToolDefinition } from '../types';
import { addCampaignRecipientsTool } from './add_campaign_recipients';
import { addGroupParticipantsTool } from './add_group_participants';
import { addNumberFilterTool } from './add_number_filter';
import { analyzeCampaignCsvTool } from './analyze_campaign_csv';
import { cancelCampaignTool } from './cancel_campaign';
import { checkRecipientSendOptionsTool } from './check_recipient_send_options';
import { createBusinessTemplateTool } from './create_business_template';
import { createCampaignTool } from './create_campaign';
import { createGroupTool } from './create_group';
import { createMessengerFormTool } from './create_messenger_form';
import { deleteChatTool } from './delete_chat';
import { deleteMessageTool } from './delete_message';
import { demoteGroupAdminsTool } from './demote_group_admins';
import { editMessageTool } from './edit_message';
import { estimateBusinessPriceTool } from './estimate_business_price';
import { forwardMessageTool } from './forward_message';
import { getAccountContextTool } from './get_account_context';
import { getAttachmentLinkTool } from './get_attachment_link';
import { getBusinessAccountTool } from './get_business_account';
import { getBusinessBillingContextTool } from './get_business_billing_context';
import { getBusinessHealthTool } from './get_business_health';
import { getBusinessMessagingAnalyticsTool } from './get_business_messaging_analytics';
import { getOperationTool } from './get_operation';
import { getSendStatusTool } from './get_send_status';
import { sendMessageTool } from './send_message';
import { getBusinessPricingAnalyticsTool } from './get_business_pricing_analytics';
import { getBusinessTemplateTool } from './get_business_template';
import { getMessagesTool } from './get_messages';
import { listConversationsTool } from './list_conversations';
import { searchAttachmentsTool } from './search_attachments';
import { searchMessagesTool } from './search_messages';

/** Every tool of the node: those the spec shapes, then those whose shape docs/assumptions.md assumes. */
export const toolEntries: readonly ToolDefinition[] = [
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
