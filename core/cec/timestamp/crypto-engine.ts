import * as pkijs from 'pkijs';

/** pkijs over Node's WebCrypto (globalThis.crypto), passed explicitly to each call instead of set as a process-wide default. */
export const cryptoEngine = new pkijs.CryptoEngine({ name: 'node-webcrypto', crypto: globalThis.crypto });

export const sha256Oid = '2.16.840.1.101.3.4.2.1';
export const timeStampingEkuOid = '1.3.6.1.5.5.7.3.8';
export const extKeyUsageOid = '2.5.29.37';

/** Copies an ArrayBuffer view into a Buffer (asn1js hands out views over shared buffers). */
export const toBuffer = (view: ArrayBuffer | ArrayBufferView): Buffer =>
  ArrayBuffer.isView(view)
    ? Buffer.from(view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength))
    : Buffer.from(view.slice(0));

/** An ArrayBuffer holding exactly these bytes (pkijs wants ArrayBuffers, Buffers may share a pool). */
export const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
