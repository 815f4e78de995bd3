import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';

/** The browser can make and use passkeys (WebAuthn, in a secure context). */
export function passkeysSupported(): boolean {
  return browserSupportsWebAuthn();
}

/** Asks the browser to make a passkey for the options the server answered. */
export function createPasskey(options: unknown): Promise<RegistrationResponseJSON> {
  return startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
}

/** Asks the browser to sign the server's challenge with a passkey. */
export function signWithPasskey(options: unknown): Promise<AuthenticationResponseJSON> {
  return startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
}

/** A browser's refusal (the person cancelled, no passkey) in words. */
export function passkeyErrorMessage(error: unknown): string | null {
  if (!(error instanceof Error) || 'status' in error) return null;
  if (error.name === 'NotAllowedError') return 'The passkey request was cancelled or timed out.';
  return `The browser could not use a passkey: ${error.message}`;
}
