import type { consoleTexts as zh } from '../zh-CN/console.js';
import type { Translation } from '../messages.js';

export const consoleTexts: Translation<typeof zh> = {
  'console.secretOf': 'client_secret of “{app}”',
  'console.secretOnce':
    ": shown this once only. Copy it now into your server's configuration.",
  'console.redirectsHint': 'One per line, e.g. https://example.com/callback',
  'console.originsHint':
    'One per line, e.g. https://example.com (empty: the origins of the redirect URIs)',
  'console.scopesHint': 'Separated by spaces, e.g. profile email',
  'console.clientIdPlaceholder': 'Empty: generated',
  'console.confidential': 'Confidential client (has a server)',
  'console.public': 'Public client (single-page or mobile app)',
  'console.create': 'Create app',
  'console.clientIdOptional': 'client_id (optional)',
  'console.clientIdHint':
    '3–64 lower-case letters, digits, - or _, not all digits',
  'console.typeHint':
    'A confidential client keeps a client_secret on its server; a public client has none and uses PKCE',
  'console.createNew': 'Create a new app',
  'console.save': 'Save',
  'console.edit': 'Edit',
  'console.none': '(none)',
  'console.disable': 'Disable',
  'console.enable': 'Enable',
  'console.rotate': 'New secret',
  'console.rotateConfirm':
    'Make a new client_secret for “{app}”? The old one stops working at once.',
  'console.enabled': 'Enabled',
  'console.disabled': 'Disabled',
  'console.type': 'Type',
  'console.publicPkce': 'Public client (PKCE)',
  'console.confidentialType': 'Confidential client{secret}',
  'console.hasSecret': ' (secret set)',
  'console.authMethod': 'Authentication',
  'console.postLogout': 'After sign-out',
  'console.created': 'Created',
  'console.suspended':
    'An administrator suspended these apps; ask the administrators if in doubt:',
  'console.suspension': '{app} ({clientId}), {time}: {reason}',
  'console.noApps': 'No apps yet.',
  'console.title': 'Developer console',
  'console.intro':
    'Manage the apps that use {site}: redirect URIs, CORS origins, scopes and secrets.',
  'console.myApps': 'My apps',
  'console.grantCode': 'Authorization code (authorization_code)',
  'console.grantRefresh': 'Refresh token (refresh_token)',
  'console.grantClient':
    'Client credentials (client_credentials, confidential clients only)',
  'console.grantDevice': 'Device code (device_code)',
  'console.methodBasic': 'client_secret_basic (HTTP Basic, the default)',
  'console.methodPost': 'client_secret_post (form fields)',
  'console.methodNone': 'none (public client)',
  'console.logoutHint': 'One per line, e.g. https://example.com/signed-out',
  'console.grantTypes': 'Grant types (grant_types)',
  'console.postLogoutUris':
    'Post-logout redirect URIs (post_logout_redirect_uris)',
  'console.backchannel': 'Back-channel logout',
  'console.backchannelUri': 'Back-channel logout URI (backchannel_logout_uri)',
  'console.backchannelHint': 'https://example.com/backchannel-logout',
  'console.backchannelNote':
    'The center posts a signed logout_token here when a person signed in to this app signs out, is banned or ends all sessions. Leave empty for none.',
  'console.backchannelSession':
    'Logout tokens must carry sid (backchannel_logout_session_required; they always do)',
  'console.oidcInfo': 'OpenID Connect settings',
  'console.oidcHint':
    'In Grafana, Gitea, Nextcloud and the like, enter the issuer or the discovery URL, then the client_id and client_secret.',
  'console.issuer': 'Issuer',
  'console.discovery': 'Discovery URL',
};
