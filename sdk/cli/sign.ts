/**
 * Signs a package for `mandi module publish --key`: an ed25519 signature of the exact .tgz bytes,
 * base64, which the registry checks against the public key registered for the publisher.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { CliError, EXIT } from './api-client';

export async function signPackage(pkg: Buffer, keyFile: string): Promise<string> {
  let pem: string;
  try {
    pem = await readFile(keyFile, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read the signing key ${keyFile}: ${(err as Error).message}`, EXIT.usage);
  }
  let key;
  try {
    key = createPrivateKey(pem);
  } catch (err) {
    throw new CliError(`${keyFile} is not a private key: ${(err as Error).message}`, EXIT.usage);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new CliError(`${keyFile} is a ${key.asymmetricKeyType} key; sign with an ed25519 key (openssl genpkey -algorithm ed25519)`, EXIT.usage);
  return sign(null, pkg, key).toString('base64');
}
