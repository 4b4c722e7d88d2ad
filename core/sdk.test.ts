import { describe, expect, it } from 'vitest';
import * as sdk from './sdk.ts';

describe('svc/sdk', () => {
  it('exports the clients, singletons, chat client and the error tree of spec 7', () => {
    expect(sdk.sfCec).toBeInstanceOf(sdk.SFCECClient);
    expect(sdk.sfIdentity).toBeInstanceOf(sdk.SFIdentityClient);
    expect(typeof sdk.chatCompletion).toBe('function');
    for (const Sub of [sdk.SFCECBuildError, sdk.SFCECVerifyError, sdk.SFCECExportError]) {
      expect(new Sub('x')).toBeInstanceOf(sdk.SFCECError);
    }
    expect(new sdk.SFCECError('x')).toBeInstanceOf(sdk.AppError);
    expect(new sdk.SFIdentityError('x')).toBeInstanceOf(sdk.AppError);
  });

  it('is importable through the package name', async () => {
    const viaPackage = await import('svc/sdk');
    expect(viaPackage.sfCec).toBe(sdk.sfCec);
  });
});
