/**
 * The public SDK (`import { sfCec, sfIdentity, chatCompletion } from 'svc/sdk'`): the clients of spec 1.5 and
 * 4.3-4.4, the chat client of 4.1, and the error classes of section 7. Importing it has no side effects: the
 * default app (SVC_DATA_DIR) opens on the first call of a singleton. `invokeOp` calls any operation in process,
 * typed from the operations table.
 */
export { SFCECClient, sfCec } from './cec/client.ts';
export type { CECClientConfig } from './cec/client.ts';
export { chatCompletion } from './chat/client.ts';
export type { ChatMessage, ChatOptions } from './chat/client.ts';
export type { ChatCompletionResponse } from './chat/response.ts';
export { AppError, SFCECBuildError, SFCECError, SFCECExportError, SFCECVerifyError, SFIdentityError } from './errors.ts';
export { SFIdentityClient, sfIdentity } from './identity/client.ts';
export { createApp } from './app.ts';
export type { App } from './app.ts';
export { invokeOp } from './ops/dispatch.ts';
export type { CallContext } from './ops/dispatch.ts';
export type { OpInput, OpName, OpOutput } from './ops/table.ts';
