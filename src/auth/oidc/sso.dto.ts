import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { Optional } from '../../common/problems/optional';

/** One way to sign in besides a password: a button "Sign in with <name>" on the sign-in screen. */
export class SsoProviderResponse {
  @ApiProperty({
    example: 'keycloak',
    description: 'The id from OIDC_PROVIDERS or SAML_PROVIDERS (lowercase).',
  })
  id: string;

  @ApiProperty({ example: 'Company SSO', description: 'The button text after "Sign in with".' })
  name: string;

  @ApiProperty({ enum: ['oidc', 'saml'] })
  protocol: 'oidc' | 'saml';

  @ApiProperty({
    example: '/auth/oidc/keycloak/login',
    description:
      'Open it in the browser (add `?returnTo=<path of kb>`) to start the sign-in (`/auth/saml/<id>/login` for SAML).',
  })
  signInUrl: string;
}

export class SsoProviderList {
  @ApiProperty({ type: [SsoProviderResponse] })
  items: SsoProviderResponse[];
}

export class SsoLoginQuery {
  @ApiPropertyOptional({
    example: '/pages/handbook',
    description:
      'Where to land after signing in: a path of kb. Anything outside kb (another host) lands on kb’s start page instead.',
  })
  @Optional()
  @IsString()
  @MaxLength(2000)
  returnTo?: string;
}

export class SsoLogoutResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The provider's end-session address when the session was made through a provider that has one (RP-initiated logout): send the browser there to end the provider's session too; null otherwise.",
  })
  redirectTo: string | null;
}
