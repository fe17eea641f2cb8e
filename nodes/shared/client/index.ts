export * from './client';
export * from './errors';
export * from './idempotency';
export * from './pacer';
export * from './retry';
export type { CallToolOptions } from './toolCall';
export * from './toolListing';
export type * from './transport';
export * from './webhookEndpoints';
