'use strict';
// The ceiling: the smallest NestJS (Express) app answering GET /ceiling with a fixed 4 KB JSON
// document. Started as its own process like the kb server, so both are measured the same way.
// Plain JavaScript, so decorators are applied as functions.
require('reflect-metadata');
const { Controller, Get, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');

const DOCUMENT = { slug: 'ceiling/fixed-document', title: 'A fixed document', items: [] };
for (let i = 0; JSON.stringify(DOCUMENT).length < 4096 - 64; i++) {
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

async function main() {
  const app = await NestFactory.create(CeilingModule, { logger: false });
  await app.listen(Number(process.env.PORT || 3999), '127.0.0.1');
  process.send?.('ready');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

module.exports = { DOCUMENT };
