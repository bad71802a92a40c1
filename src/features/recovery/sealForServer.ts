/** The server's current public key for recovery data (`GET credentials-management/getKey`). */
export interface ServerPublicKey {
  keyId: string;
  /** SubjectPublicKeyInfo (DER), base64. RSA 3072, used with OAEP and SHA-256. */
  publicKey: string;
}

const toBase64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

/**
 * Encrypts `payload` so that only the server can read it, whatever its length: a fresh AES-256-GCM key
 * encrypts the JSON, and the server's RSA-OAEP key wraps that AES key. Answers the `data` to send.
 */
export async function sealForServer(payload: unknown, key: ServerPublicKey): Promise<string> {
  const rsaKey = await crypto.subtle.importKey('spki', fromBase64(key.publicKey), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const aesKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, aesKey, new TextEncoder().encode(JSON.stringify(payload)));
  const wrappedKey = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, rsaKey, await crypto.subtle.exportKey('raw', aesKey));
  return btoa(JSON.stringify({ keyId: key.keyId, key: toBase64(wrappedKey), iv: toBase64(iv), data: toBase64(ciphertext) }));
}
