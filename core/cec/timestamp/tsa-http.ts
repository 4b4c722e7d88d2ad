/** Limits for talking to a timestamp authority: replies are a few KB; anything far larger is refused. */
export type TsaLimits = { readonly timeoutMs: number; readonly maxReplyBytes: number };
export const defaultTsaLimits: TsaLimits = { timeoutMs: 15_000, maxReplyBytes: 256 * 1024 };

/** RFC 3161's media type, and the name some deployed TSAs send instead. */
const replyTypes = ['application/timestamp-reply', 'application/timestamp-response'];

/** The TSA URL without credentials, query or fragment: safe to put in logs and error messages. */
export const describeTsa = (url: string): string => {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(invalid TSA URL)';
  }
};

const readCapped = async (body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Buffer> => {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`reply larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
};

/**
 * POSTs a DER TimeStampReq as application/timestamp-query (RFC 3161 section 3.4) and returns the reply body.
 * Redirects are refused (a TSA has one address), the whole exchange has a deadline and the reply a size cap.
 */
export const postTimestampQuery = async (url: string, der: Buffer, limits: TsaLimits): Promise<Buffer> => {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`unsupported URL scheme ${parsed.protocol}`);
  }
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  try {
    response = await fetch(parsed, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
      body: new Uint8Array(der),
      redirect: 'error',
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw new Error(`no reply within ${limits.timeoutMs} ms`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`request failed (${cause?.code ?? cause?.message ?? (error as Error).message})`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(`HTTP ${response.status}`);
  }
  const type = response.headers.get('content-type') ?? '';
  if (!replyTypes.some((accepted) => type.toLowerCase().startsWith(accepted))) {
    await response.body?.cancel();
    throw new Error(`unexpected content type "${type.slice(0, 60)}"`);
  }
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > limits.maxReplyBytes) {
    await response.body?.cancel();
    throw new Error(`reply larger than ${limits.maxReplyBytes} bytes`);
  }
  if (response.body === null) throw new Error('empty reply');
  return readCapped(response.body, limits.maxReplyBytes);
};
