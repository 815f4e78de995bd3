'use strict';
// The ceiling: the smallest NestJS (Express) app answering GET /ceiling with a fixed 4 KB JSON
// document. Started as its own process like the kb server, so both are measured the same way.
// Plain JavaScript, so decorators are applied as functions.
// CEILING_MIDDLEWARE=1 adds what every kb request passes before its handler and the ceiling
// lacks: helmet with kb's policy, cookie-parser, a request id (X-Request-Id, a UUID, a finish
// listener) and the JSON body parser; CEILING_BYTES sets the document size (default 4 KB).
// CEILING_WORKERS=n runs n such processes on the port with node:cluster, as kb's KB_WORKERS
// does: the ceiling for kb at that many processes.
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');

const DOCUMENT = { slug: 'ceiling/fixed-document', title: 'A fixed document', items: [] };
const BYTES = Number(process.env.CEILING_BYTES || 4096);
for (let i = 0; JSON.stringify(DOCUMENT).length < BYTES - 64; i++) {
  DOCUMENT.items.push({
    id: i,
    name: `item-${i}`,
    text: 'The quick brown fox jumps over the lazy dog.',
  });
}

class CeilingController {
  get() {
    return DOCUMENT;
  }
}
Get()(
  CeilingController.prototype,
  'get',
  Object.getOwnPropertyDescriptor(CeilingController.prototype, 'get'),
);
Controller('ceiling')(CeilingController);

class CeilingModule {}
Module({ controllers: [CeilingController] })(CeilingModule);

/** The middleware of src/app.factory.ts, in its order, without kb's logger (LOG_LEVEL=warn drops it). */
function addKbMiddleware(app) {
  const { randomUUID } = require('node:crypto');
  const { securityHeaders } = require('../dist/common/http/security-headers');
  const cookieParser = require('cookie-parser');
  const { json } = require('express');
  app.use((req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && /^[A-Za-z0-9._-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    const started = process.hrtime.bigint();
    res.on('finish', () => Number(process.hrtime.bigint() - started));
    next();
  });
  // The same security headers kb sends (dist/ is built before the bench runs).
  app.use(securityHeaders());
  app.use(cookieParser());
  app.use(json({ limit: '1mb' }));
}

async function main() {
  const withMiddleware = process.env.CEILING_MIDDLEWARE === '1';
  // kb registers its own JSON parser (bodyParser: false); the plain ceiling keeps Nest's default.
  const app = await NestFactory.create(CeilingModule, {
    logger: false,
    bodyParser: !withMiddleware,
  });
  if (withMiddleware) addKbMiddleware(app);
  await app.listen(Number(process.env.PORT || 3999), '127.0.0.1');
  process.send?.('ready');
}

const workers = Number(process.env.CEILING_WORKERS || 1);
const cluster = require('node:cluster');
if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
    process.exit(0);
  });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { DOCUMENT };
