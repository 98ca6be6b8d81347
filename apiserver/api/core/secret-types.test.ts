import { describe, expect, it } from 'vitest';
import { validateSecretType } from './secret-types.js';

const secret = (type: string, data: Record<string, string> = {}, annotations?: Record<string, string>) => ({ type, data, metadata: { annotations } });
const fields = (errors: ReturnType<typeof validateSecretType>) => errors.map((e) => `${e.field}: ${e.type}`);

describe('validateSecretType', () => {
  it('asks of each typed Secret the keys kube-apiserver asks for', () => {
    expect(fields(validateSecretType(secret('kubernetes.io/dockerconfigjson')))).toEqual(['data[.dockerconfigjson]: FieldValueRequired']);
    expect(fields(validateSecretType(secret('kubernetes.io/dockercfg')))).toEqual(['data[.dockercfg]: FieldValueRequired']);
    expect(fields(validateSecretType(secret('kubernetes.io/tls')))).toEqual(['data[tls.crt]: FieldValueRequired', 'data[tls.key]: FieldValueRequired']);
    expect(fields(validateSecretType(secret('kubernetes.io/ssh-auth', { 'ssh-privatekey': '' })))).toEqual(['data[ssh-privatekey]: FieldValueRequired']);
    expect(fields(validateSecretType(secret('kubernetes.io/basic-auth')))).toEqual([
      'data[username]: FieldValueRequired',
      'data[password]: FieldValueRequired',
    ]);
    expect(fields(validateSecretType(secret('kubernetes.io/service-account-token')))).toEqual([
      'metadata.annotations[kubernetes.io/service-account.name]: FieldValueRequired',
    ]);
  });

  it('accepts what carries them, and leaves other types alone', () => {
    expect(validateSecretType(secret('kubernetes.io/basic-auth', { password: '' }))).toEqual([]);
    expect(validateSecretType(secret('kubernetes.io/tls', { 'tls.crt': 'eA==', 'tls.key': 'eA==' }))).toEqual([]);
    expect(validateSecretType(secret('kubernetes.io/service-account-token', {}, { 'kubernetes.io/service-account.name': 'x' }))).toEqual([]);
    expect(validateSecretType(secret('Opaque'))).toEqual([]);
    expect(validateSecretType(secret('example.com/anything'))).toEqual([]);
  });
});
