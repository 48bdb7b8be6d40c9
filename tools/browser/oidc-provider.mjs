// A real OpenID provider (the npm package oidc-provider) on loopback, for the
// console's sign-on test in a real browser (host-native/tests/console_browser_oidc.rs).
//
//   node oidc-provider.mjs --port 0 --redirect-uri http://127.0.0.1:8080/console/oidc/callback \
//     [--client-id cgw-console[,other…]] [--client-secret-file FILE] [--host 127.0.0.1|localhost] \
//     [--expiring-login NAME] [--node-modules DIR]
//
// (or OIDC_PORT, OIDC_REDIRECT_URI, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET_FILE,
// OIDC_HOST, OIDC_EXPIRING_LOGIN; the package from DIR, else
// $CGW_BROWSER_TOOLS/node_modules, where scripts/test.sh runs `npm ci` of
// this directory's package.json). Confidential clients (the first is the
// console's; any other, with the same secret and redirect URI, is another
// audience) that authenticate at the token endpoint with their secret in the
// body (client_secret_post), PKCE (S256) required of them, the `openid` and
// `email` scopes. Its own login page (GET/POST /interaction/:uid) takes a
// login name, which is the account's `sub`; the account's e-mail is
// `<login>@example.com`, verified. Every authorization asks who signs in
// (no single sign-on across sign-ins: one browser signs in as several
// people), and consent is given for the client as the person signs in (a
// first-party console). A code lives 60 s, but one issued to the
// `--expiring-login` lives 1 s (the expired-code test). A fresh RSA key per
// start, so two instances are two issuers with keys of their own. Listens
// on 127.0.0.1 only (`--host localhost` names the issuer
// http://localhost:PORT, another site than 127.0.0.1 to a browser, as a
// team's provider is); prints `issuer http://HOST:PORT` on stdout once it
// listens.

import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

function option(name, env, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  if (at !== -1 && at + 1 < process.argv.length) return process.argv[at + 1];
  return process.env[env] ?? fallback;
}

const port = Number(option('port', 'OIDC_PORT', '0'));
const redirectUri = option('redirect-uri', 'OIDC_REDIRECT_URI');
const clientIds = option('client-id', 'OIDC_CLIENT_ID', 'cgw-console').split(',').map((id) => id.trim()).filter(Boolean);
const host = option('host', 'OIDC_HOST', '127.0.0.1');
const expiringLogin = option('expiring-login', 'OIDC_EXPIRING_LOGIN');
const secretFile = option('client-secret-file', 'OIDC_CLIENT_SECRET_FILE');
const clientSecret = secretFile ? fs.readFileSync(secretFile, 'utf8').trim() : option('client-secret', 'OIDC_CLIENT_SECRET', 'cgw-console-secret');
if (!redirectUri || !Number.isInteger(port) || port < 0 || port > 65535 || clientIds.length === 0 || !['127.0.0.1', 'localhost'].includes(host)) {
  console.error('usage: node oidc-provider.mjs --port N --redirect-uri URL [--client-id ID[,ID…]] [--client-secret-file FILE] [--host 127.0.0.1|localhost] [--expiring-login NAME]');
  process.exit(2);
}
const modules = option('node-modules', 'OIDC_NODE_MODULES',
  process.env.CGW_BROWSER_TOOLS ? path.join(process.env.CGW_BROWSER_TOOLS, 'node_modules') : path.join(import.meta.dirname, 'node_modules'));
const { default: Provider, interactionPolicy } = await import(pathToFileURL(createRequire(path.join(modules, 'noop.js')).resolve('oidc-provider')).href);
const redirect = new URL(redirectUri);
if (redirect.hostname !== '127.0.0.1') {
  console.error(`the redirect URI must be on 127.0.0.1 (loopback only): ${redirectUri}`);
  process.exit(2);
}

const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(res, status, title, body) {
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head>`
    + `<body><main><h1>${escape(title)}</h1>${body}</main></body></html>`);
}

function formBody(req) {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      text += chunk;
      if (text.length > 10000) reject(new Error('form too large'));
    });
    req.on('end', () => resolve(new URLSearchParams(text)));
    req.on('error', reject);
  });
}

// listen first: the issuer names the port taken
const server = http.createServer();
await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
const issuer = `http://${host}:${server.address().port}`;

// who signs in is asked at every authorization (the provider's session from
// an earlier sign-in is not enough), and answered once within it
const policy = interactionPolicy.base();
policy.get('login').checks.add(new interactionPolicy.Check('each_time', 'every sign-in asks who signs in', 'login_required',
  (ctx) => (ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT)));

const key = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
const provider = new Provider(issuer, {
  clients: clientIds.map((id) => ({
    client_id: id,
    client_secret: clientSecret,
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    token_endpoint_auth_method: 'client_secret_post',
  })),
  pkce: { required: () => true },
  scopes: ['openid', 'email'],
  claims: { openid: ['sub'], email: ['email', 'email_verified'] },
  // the e-mail in the ID token itself, where the gateway reads it
  conformIdTokenClaims: false,
  findAccount: (ctx, sub) => ({
    accountId: sub,
    claims: () => ({ sub, email: `${sub}@example.com`, email_verified: true }),
  }),
  interactions: { policy, url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  features: { devInteractions: { enabled: false } },
  jwks: { keys: [{ ...key, kid: crypto.randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' }] },
  cookies: { keys: [crypto.randomBytes(32).toString('hex')] },
  ttl: { AuthorizationCode: (ctx, code) => (expiringLogin && code.accountId === expiringLogin ? 1 : 60), IdToken: 600, AccessToken: 600, Interaction: 600, Session: 600, Grant: 600 },
});
const callback = provider.callback();

async function interaction(req, res, uid, submit) {
  let details;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    return page(res, 400, 'Sign-in expired', '<p>This sign-in is unknown or expired.</p>');
  }
  if (details.uid !== uid) return page(res, 400, 'Sign-in expired', '<p>This sign-in is another one.</p>');
  if (!submit) {
    return page(res, 200, `Sign in to ${issuer}`,
      `<form method="post" action="/interaction/${escape(uid)}">`
      + '<p><label for="login">Login name</label> <input id="login" name="login" autocomplete="username" required></p>'
      + '<p><button type="submit">Sign in</button></p></form>');
  }
  const login = (await formBody(req)).get('login')?.trim();
  if (!login || !/^[A-Za-z0-9._-]{1,64}$/.test(login)) {
    return page(res, 400, 'Sign-in refused', '<p>A login name is letters, digits, dots, dashes or underscores.</p>');
  }
  const { params } = details;
  const grant = new provider.Grant({ accountId: login, clientId: params.client_id });
  grant.addOIDCScope(String(params.scope ?? 'openid'));
  const grantId = await grant.save();
  return provider.interactionFinished(req, res, { login: { accountId: login }, consent: { grantId } }, { mergeWithLastSubmission: false });
}

server.on('request', (req, res) => {
  const path = new URL(req.url, issuer).pathname;
  const match = /^\/interaction\/([A-Za-z0-9_-]+)$/.exec(path);
  if (match && (req.method === 'GET' || req.method === 'POST')) {
    interaction(req, res, match[1], req.method === 'POST').catch((e) => {
      console.error(e);
      if (!res.headersSent) page(res, 500, 'Sign-in failed', '<p>The provider failed.</p>');
    });
    return;
  }
  callback(req, res);
});

for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
console.log(`issuer ${issuer}`);
