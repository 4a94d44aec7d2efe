// How the shop reaches a shopper's phone with order messages: SMS (the default) or WhatsApp,
// chosen in the profile. The wire between the storefront and the backend; both sides import it,
// and it imports only valibot and the contract.

import * as v from "valibot";
import type { InputMessages } from "./inputs";

export const MESSAGE_CHANNELS = ["sms", "whatsapp"] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** GET → MessageChannelState; POST MessageChannelRequest → MessageChannelState (signed in). */
export const MESSAGE_CHANNEL_PATH = "/client/auth/message-channel";

export interface MessageChannelState {
  channel: MessageChannel;
  /** Whether the shop sends WhatsApp messages at all (WHATSAPP is on). */
  whatsapp_available: boolean;
  /** The account's phone, where WhatsApp messages would go; null: WhatsApp cannot be chosen. */
  phone: string | null;
  /**
   * The sentence shown beside the WhatsApp choice, in the request's language, naming the phone;
   * the backend records this exact wording with the opt-in. Null without a phone.
   */
  consent: string | null;
  /** When WhatsApp was chosen (the opt-in in force), or null. */
  opted_in_at: string | null;
}

/** POST body. `consent` is the wording the page showed: kept with the opt-in when it is the backend's own. */
export interface MessageChannelRequest {
  channel: MessageChannel;
  consent?: string;
}

export function messageChannelInput(m: InputMessages) {
  return v.object({
    channel: v.picklist(MESSAGE_CHANNELS, m.invalid("channel")),
    consent: v.optional(v.pipe(v.string(m.invalid("channel")), v.maxLength(500, m.invalid("channel")))),
  });
}
