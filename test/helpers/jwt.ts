/** The decoded header of a compact JWT (no signature check). */
export function jwtHeader(token: string): Record<string, any> {
  return decodePart(token, 0);
}

/** The decoded claims (payload) of a compact JWT (no signature check). */
export function jwtClaims(token: string): Record<string, any> {
  return decodePart(token, 1);
}

function decodePart(token: string, index: number): Record<string, any> {
  const part = token.split('.')[index];
  if (part === undefined)
    throw new Error(`not a compact JWT: ${token.slice(0, 40)}`);
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
}
