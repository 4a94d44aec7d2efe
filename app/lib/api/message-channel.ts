import {
  MESSAGE_CHANNEL_PATH,
  type MessageChannelRequest,
  type MessageChannelState,
} from "../../../contract/message-channel";
import type { Api } from "./client";

/** GET /client/auth/message-channel: how order messages reach the shopper's phone. */
export function getMessageChannel(api: Api) {
  return api.get<MessageChannelState>(MESSAGE_CHANNEL_PATH);
}

/** POST /client/auth/message-channel: SMS, or WhatsApp with the opt-in wording the page showed. */
export function setMessageChannel(api: Api, request: MessageChannelRequest, userId: string | null) {
  return api.post<MessageChannelState>(MESSAGE_CHANNEL_PATH, request, { id: userId ?? undefined });
}
