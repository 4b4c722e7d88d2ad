import { create } from 'zustand';
import { type OpOutput, type Transport, transport } from '../transport/index.ts';
import { messageOf, opCaller } from './call.ts';

export type ChatTurn = { readonly role: 'user' | 'assistant' | 'system'; readonly content: string };
type Reply = OpOutput<'chat.complete'>;

type ChatState = {
  readonly turns: ChatTurn[];
  readonly last: Reply | null;
  readonly sending: boolean;
  readonly error: string | null;
  send(content: string, options: { endpoint?: string; model?: string; piiFilter?: 'off' | 'redact' | 'block' }): Promise<void>;
  clear(): void;
};

/**
 * The conversation lives in memory only; the provider key never reaches the renderer.
 * Built over a given Transport (store tests inject a fake); `useChat` is the app's.
 */
export const createChatStore = (via: Transport, callOp = opCaller(via)) =>
  create<ChatState>((set, get) => ({
    turns: [],
    last: null,
    sending: false,
    error: null,
    send: async (content, options) => {
      const turns = [...get().turns, { role: 'user' as const, content }];
      set({ turns, sending: true, error: null });
      try {
        const reply = await callOp('chat.complete', {
          messages: turns,
          ...(options.endpoint ? { endpoint: options.endpoint } : {}),
          ...(options.model ? { model: options.model } : {}),
          ...(options.piiFilter ? { pii_filter: options.piiFilter } : {}),
        });
        set({ last: reply, turns: reply.ok ? [...turns, { role: 'assistant', content: reply.text }] : turns, error: reply.error });
      } catch (error) {
        set({ error: messageOf(error) });
      } finally {
        set({ sending: false });
      }
    },
    clear: () => set({ turns: [], last: null, error: null }),
  }));

export const useChat = createChatStore(transport);
